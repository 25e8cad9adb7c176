import { startFakeModel } from "@ringback/fake-model";
import { describe, expect, it } from "vitest";
import { listModels, modelsUrl } from "./list-models.js";
import { ModelAnswerError } from "./model-problem.js";
import { channelForm, channelFromForm } from "./question-channel-form.js";

describe("the question model form", () => {
  const saved = { baseUrl: "https://models.example/v1", model: "small", apiKey: "sk-saved" };

  it("opens with the saved address and model, never the key", () => {
    expect(channelForm(saved)).toEqual({ baseUrl: saved.baseUrl, model: "small", apiKey: "" });
    expect(channelForm(null)).toEqual({ baseUrl: "", model: "", apiKey: "" });
  });

  it("keeps the saved key when the key field is left empty", () => {
    expect(
      channelFromForm({ baseUrl: " https://other.example/v1 ", model: "big", apiKey: "" }, saved),
    ).toEqual({
      baseUrl: "https://other.example/v1",
      model: "big",
      apiKey: "sk-saved",
    });
    expect(channelFromForm({ ...channelForm(saved), apiKey: "sk-new" }, saved)?.apiKey).toBe("sk-new");
  });

  it("refuses an incomplete channel", () => {
    expect(channelFromForm({ baseUrl: "https://a.example/v1", model: "m", apiKey: "" }, null)).toBeNull();
    expect(channelFromForm({ baseUrl: "ftp://a.example", model: "m", apiKey: "k" }, null)).toBeNull();
    expect(channelFromForm({ baseUrl: "https://a.example/v1", model: " ", apiKey: "k" }, null)).toBeNull();
  });
});

describe("listing the models of an address", () => {
  it("asks GET /models with the key and sorts the ids", async () => {
    await using model = await startFakeModel({ apiKey: "sk-list", models: ["zeta", "alpha", "alpha"] });
    expect(await listModels({ baseUrl: `${model.url}/`, apiKey: "sk-list" })).toEqual(["alpha", "zeta"]);
    expect(model.requests[0]).toMatchObject({ method: "GET", path: "/v1/models" });
    expect(model.requests[0]?.headers.authorization).toBe("Bearer sk-list");
  });

  it("fails with the status and the provider's own message, without the key", async () => {
    await using model = await startFakeModel({ apiKey: "sk-right" });
    const error = await listModels({ baseUrl: model.url, apiKey: "sk-wrong-secret" }).catch(
      (caught) => caught,
    );
    expect(error).toBeInstanceOf(ModelAnswerError);
    expect((error as ModelAnswerError).problem).toEqual({
      kind: "status",
      status: 401,
      detail: "Incorrect API key provided.",
    });
    expect((error as Error).message).toBe("The language model answered 401: Incorrect API key provided.");
    expect(JSON.stringify(error)).not.toContain("sk-wrong-secret");
  });

  it("fails as unreachable when nothing answers at the address", async () => {
    const model = await startFakeModel();
    const address = model.url;
    await model.close();
    const error = await listModels({ baseUrl: address, apiKey: "" }).catch((caught) => caught);
    expect((error as ModelAnswerError).problem).toEqual({ kind: "unreachable", address });
  });

  it("fails when the address answers something that is not a list of models", async () => {
    const notAList = (async () => Response.json({ models: ["a"] })) as typeof fetch;
    const error = await listModels({ baseUrl: "https://models.example/v1", apiKey: "" }, notAList).catch(
      (caught) => caught,
    );
    expect((error as ModelAnswerError).problem).toEqual({ kind: "not-a-model-list" });
  });

  it("builds the address whether or not the base ends in a slash", () => {
    expect(modelsUrl("http://127.0.0.1:1/v1/").href).toBe("http://127.0.0.1:1/v1/models");
    expect(modelsUrl("http://127.0.0.1:1/v1?x=1").href).toBe("http://127.0.0.1:1/v1/models?x=1");
  });
});
