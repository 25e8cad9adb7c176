import { answers, startFakeModel } from "@ringback/fake-model";
import { describe, expect, it } from "vitest";
import { briefJsonSchema, CONNECTION_TEST_REPORT, testConnection } from "../src/index.js";
import { channelFor, chatBody, messagesOf } from "./helpers.js";

describe("testConnection", () => {
  it("succeeds with the same structured call as a brief generation", async () => {
    await using fake = await startFakeModel();

    const result = await testConnection({ channel: channelFor(fake, { reasoningEffort: "minimal" }) });

    expect(result).toEqual({ ok: true, model: "fake-model" });
    expect(chatBody(fake)).toMatchObject({
      model: "fake-model",
      reasoning_effort: "minimal",
      response_format: {
        type: "json_schema",
        json_schema: { name: "brief", strict: true, schema: briefJsonSchema() },
      },
    });
    expect(messagesOf(fake)[1]?.content).toContain(CONNECTION_TEST_REPORT.text);
  });

  it("reports the error of a model that does not answer with a brief", async () => {
    await using fake = await startFakeModel();
    fake.script(answers.invalidJson());

    const result = await testConnection({ channel: channelFor(fake, { structuredOutput: "json_object" }) });

    expect(result.ok).toBe(false);
    expect(result.model).toBe("fake-model");
    expect(result.error).toMatch(/^The language model's answer is not valid JSON: /);
  });

  it("reports an HTTP error", async () => {
    await using fake = await startFakeModel({ apiKey: "the-right-key-123" });

    const result = await testConnection({ channel: channelFor(fake) });

    expect(result).toEqual({
      ok: false,
      error: "The language model answered HTTP 401: Incorrect API key provided.",
      model: "fake-model",
    });
  });
});
