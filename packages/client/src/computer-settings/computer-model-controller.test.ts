import { generateKey } from "@ringback/e2e-crypto";
import { answers, type FakeModel, startFakeModel } from "@ringback/fake-model";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type SettingsBackedState, settingsBackedDaemon } from "../../test/settings-backed-daemon.js";
import { type StandInComputer, startStandInComputer } from "../../test/stand-in-computer.js";
import { DaemonClient } from "../daemon/daemon-client.js";
import { RelayClient } from "../relay/relay-client.js";
import { ComputerModelController } from "./computer-model-controller.js";
import { computerModelForm } from "./computer-model-form.js";

const key = generateKey();
const SECRET = "sk-computer-secret-1234";

describe("Settings › Language model for briefs, relayed to a stand-in computer", () => {
  let computer: StandInComputer;
  let state: SettingsBackedState;
  let controller: ComputerModelController;
  let model: FakeModel;

  beforeAll(async () => {
    model = await startFakeModel({ apiKey: SECRET });
    const backed = settingsBackedDaemon({ trackerUrl: "http://127.0.0.1:9" });
    state = backed.state;
    computer = await startStandInComputer(key, backed.daemon);
  });

  afterAll(async () => {
    await computer?.close();
    await model?.close();
  });

  beforeEach(() => {
    state.llm = null;
    computer.requests.length = 0;
    computer.relayRefuses(null);
    const client = new DaemonClient(
      new RelayClient({ serverUrl: computer.origin, deviceToken: "tok" }),
      key,
      "dev_pc",
    );
    controller = new ComputerModelController(async () => client);
  });

  /** A channel the computer already keeps, with its key. */
  const SAVED_CHANNEL = {
    baseUrl: "https://old.example/v1",
    model: "old",
    apiKey: SECRET,
    structuredOutput: "json_schema" as const,
  };

  const form = {
    baseUrl: " https://models.example/v1 ",
    model: " brief-model ",
    apiKey: "",
    structuredOutput: "json_schema" as const,
    timeout: { useDefault: true, seconds: "" },
    noProgress: { useDefault: true, seconds: "" },
    outputCap: { useDefault: true, tokens: "" },
  };

  it("saves the channel with its key once; afterwards only the key's hint comes back", async () => {
    await controller.load();
    expect(controller.view).toMatchObject({ isLoaded: true, channel: null });
    expect(await controller.save({ ...form, apiKey: SECRET, structuredOutput: "json_object" })).toBe(true);
    expect(computer.requests.at(-1)).toEqual({
      method: "PUT",
      path: "/llm/settings",
      body: {
        baseUrl: "https://models.example/v1",
        model: "brief-model",
        apiKey: SECRET,
        structuredOutput: "json_object",
        timeoutMs: null,
        noProgressTimeoutMs: null,
        maxOutputTokens: null,
      },
    });
    expect(controller.view.channel).toEqual({
      baseUrl: "https://models.example/v1",
      model: "brief-model",
      keyHint: "****1234",
      structuredOutput: "json_object",
    });
    expect(controller.view.notice).toBe("saved");
    expect(JSON.stringify(controller.view)).not.toContain(SECRET);
    // The form opens again without the key.
    expect(computerModelForm(controller.view.channel).apiKey).toBe("");
  });

  it("keeps the saved key when the key field is left empty", async () => {
    state.llm = { ...SAVED_CHANNEL };
    await controller.load();
    expect(await controller.save({ ...form, model: "newer" })).toBe(true);
    expect(computer.requests.at(-1)?.body).not.toHaveProperty("apiKey");
    expect(state.llm).toMatchObject({ model: "newer", apiKey: SECRET });
  });

  it("asks for a key on the first save without asking the computer", async () => {
    await controller.load();
    expect(await controller.save(form)).toBe(false);
    expect(controller.view.problem?.kind).toBe("llm-key-required");
    expect(computer.requests.map((request) => request.method)).toEqual(["GET"]);
  });

  it("refuses an address that is not http(s) and an empty model", async () => {
    await controller.load();
    await controller.save({ ...form, baseUrl: "ftp://models.example", apiKey: SECRET });
    expect(controller.view.problem?.kind).toBe("model-address");
    await controller.save({ ...form, model: " ", apiKey: SECRET });
    expect(controller.view.problem?.kind).toBe("model-incomplete");
  });

  it("saves both time limits in milliseconds, opens them again in seconds, and puts one back to the default", async () => {
    state.llm = { ...SAVED_CHANNEL };
    await controller.load();
    const limited = {
      ...form,
      timeout: { useDefault: false, seconds: "900" },
      noProgress: { useDefault: false, seconds: "45.5" },
    };
    expect(await controller.save(limited)).toBe(true);
    expect(computer.requests.at(-1)?.body).toMatchObject({ timeoutMs: 900_000, noProgressTimeoutMs: 45_500 });
    expect(state.llm).toMatchObject({ timeoutMs: 900_000, noProgressTimeoutMs: 45_500 });
    expect(controller.view.channel).toMatchObject({ timeoutMs: 900_000, noProgressTimeoutMs: 45_500 });
    expect(computerModelForm(controller.view.channel)).toMatchObject({
      timeout: { useDefault: false, seconds: "900" },
      noProgress: { useDefault: false, seconds: "45.5" },
    });

    expect(await controller.save({ ...limited, noProgress: { useDefault: true, seconds: "45.5" } })).toBe(
      true,
    );
    expect(computer.requests.at(-1)?.body).toMatchObject({ timeoutMs: 900_000, noProgressTimeoutMs: null });
    expect(state.llm?.noProgressTimeoutMs).toBeUndefined();
    expect(computerModelForm(controller.view.channel).noProgress).toEqual({ useDefault: true, seconds: "" });
  });

  it("saves the output cap in tokens, opens it again, keeps it with the limits, and puts it back to the default", async () => {
    state.llm = { ...SAVED_CHANNEL };
    await controller.load();
    const capped = { ...form, outputCap: { useDefault: false, tokens: "3072" } };
    expect(await controller.save(capped)).toBe(true);
    expect(computer.requests.at(-1)?.body).toMatchObject({ maxOutputTokens: 3072 });
    expect(state.llm).toMatchObject({ maxOutputTokens: 3072 });
    expect(controller.view.channel).toMatchObject({ maxOutputTokens: 3072 });
    expect(computerModelForm(controller.view.channel).outputCap).toEqual({
      useDefault: false,
      tokens: "3072",
    });

    expect(await controller.save({ ...capped, outputCap: { useDefault: true, tokens: "3072" } })).toBe(true);
    expect(computer.requests.at(-1)?.body).toMatchObject({ maxOutputTokens: null });
    expect(state.llm?.maxOutputTokens).toBeUndefined();
    expect(computerModelForm(controller.view.channel).outputCap).toEqual({ useDefault: true, tokens: "" });
  });

  it("refuses an output cap outside 256 to 32768 tokens without asking the computer", async () => {
    state.llm = { ...SAVED_CHANNEL };
    await controller.load();
    for (const tokens of ["100", "40000", "2k", ""]) {
      expect(await controller.save({ ...form, outputCap: { useDefault: false, tokens } })).toBe(false);
      expect(controller.view.problem?.kind).toBe("model-output-cap");
    }
    expect(computer.requests.map((request) => request.method)).toEqual(["GET"]);
  });

  it("refuses a time limit outside 1 s to 1 h without asking the computer", async () => {
    state.llm = { ...SAVED_CHANNEL };
    await controller.load();
    for (const seconds of ["0", "0.4", "3601", "ten", ""]) {
      expect(await controller.save({ ...form, timeout: { useDefault: false, seconds } })).toBe(false);
      expect(controller.view.problem?.kind).toBe("model-limit");
    }
    expect(computer.requests.map((request) => request.method)).toEqual(["GET"]);
  });

  it("tests with the typed limits and shows how long a typical and a long report would take", async () => {
    state.llm = { baseUrl: model.url, model: "fake-model", apiKey: SECRET, structuredOutput: "json_schema" };
    await controller.load();
    // A slow local model: a second to read the prompt, then a token every 30 ms.
    model.script(answers.streamed({ firstPieceMs: 1000, pieceMs: 30 }));

    expect(
      await controller.test({
        ...form,
        baseUrl: model.url,
        model: "fake-model",
        timeout: { useDefault: false, seconds: "10" },
      }),
    ).toBe(true);

    expect(computer.requests.at(-1)?.body).toMatchObject({ timeoutMs: 10_000, noProgressTimeoutMs: null });
    const result = controller.view.testResult;
    expect(result?.ok).toBe(true);
    const timing = result?.ok ? result.timing : undefined;
    expect(timing).toMatchObject({ endpoint: "local", timeoutMs: 10_000, noProgressTimeoutMs: 60_000 });
    expect(timing?.promptTokensPerSecond).toBeGreaterThan(0);
    expect(timing?.estimates.map((estimate) => [estimate.report, estimate.lines])).toEqual([
      ["typical", 30],
      ["long", 350],
    ]);
    // The long report outgrows 10 s at these speeds; the test saved nothing.
    expect(timing?.estimates.at(-1)?.fitsTimeout).toBe(false);
    expect(state.llm?.timeoutMs).toBeUndefined();
  });

  it("removes the channel", async () => {
    state.llm = { ...SAVED_CHANNEL };
    await controller.load();
    expect(await controller.remove()).toBe(true);
    expect(controller.view).toMatchObject({ channel: null, notice: "removed" });
    expect(state.llm).toBeNull();
  });

  it("tests the typed channel with the saved key, without saving it, and shows the model and its latency", async () => {
    state.llm = { baseUrl: model.url, model: "fake-model", apiKey: SECRET, structuredOutput: "json_schema" };
    await controller.load();
    const chatCalls = model.chatRequests().length;

    expect(await controller.test({ ...form, baseUrl: model.url, model: "fake-model" })).toBe(true);

    expect(computer.requests.at(-1)).toEqual({
      method: "POST",
      path: "/llm/test",
      body: {
        baseUrl: model.url,
        model: "fake-model",
        structuredOutput: "json_schema",
        timeoutMs: null,
        noProgressTimeoutMs: null,
        maxOutputTokens: null,
      },
    });
    expect(controller.view.testResult).toMatchObject({ ok: true, model: "fake-model" });
    expect(controller.view.busy).toBeNull();
    expect(model.chatRequests()).toHaveLength(chatCalls + 1);
    expect(model.chatRequests().at(-1)?.headers.authorization).toBe(`Bearer ${SECRET}`);
    expect(state.llm).toMatchObject({ baseUrl: model.url, model: "fake-model" });
    expect(computer.requests.map((request) => request.method)).not.toContain("PUT");
  });

  it("shows why the model did not work, without the key", async () => {
    await controller.load();
    const wrongKey = "sk-wrong-key-for-the-model-0000";

    expect(
      await controller.test({ ...form, baseUrl: model.url, model: "fake-model", apiKey: wrongKey }),
    ).toBe(true);

    expect(controller.view.testResult).toEqual({
      ok: false,
      error: {
        code: "llm_call_failed",
        message: "The language model answered HTTP 401: Incorrect API key provided.",
      },
    });
    expect(JSON.stringify(controller.view)).not.toContain(wrongKey);
    expect(state.llm).toBeNull();
  });

  it("shows a model that answers with no brief as not working, and clears the result on the next action", async () => {
    state.llm = { baseUrl: model.url, model: "fake-model", apiKey: SECRET, structuredOutput: "json_object" };
    await controller.load();
    model.script(answers.schemaMismatch());

    await controller.test({
      ...form,
      baseUrl: model.url,
      model: "fake-model",
      structuredOutput: "json_object",
    });

    expect(controller.view.testResult?.ok).toBe(false);
    await controller.save({ ...form, baseUrl: model.url, model: "fake-model" });
    expect(controller.view).toMatchObject({ notice: "saved", testResult: null });
  });

  it("asks for a key before testing when none is saved, without asking the computer", async () => {
    await controller.load();
    expect(await controller.test({ ...form, baseUrl: model.url, model: "fake-model" })).toBe(false);
    expect(controller.view).toMatchObject({ problem: { kind: "llm-key-required" }, testResult: null });
    expect(computer.requests.map((request) => request.method)).toEqual(["GET"]);
  });

  it("says the computer is offline", async () => {
    computer.relayRefuses("computer_offline");
    await controller.load();
    expect(controller.view).toMatchObject({ isLoaded: false, busy: null });
    expect(controller.view.problem?.kind).toBe("computer-offline");
  });
});
