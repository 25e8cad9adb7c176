import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { aad, openJson, parseKey } from "@ringback/e2e-crypto";
import { answers, type FakeModel, startFakeModel } from "@ringback/fake-model";
import { DaemonConfig, LlmTestResponse, SettingsResultPlaintext } from "@ringback/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CONFIG_FILE } from "../src/runtime/files/config-file.js";
import { type InProcessDaemon, startInProcessDaemon } from "./helpers/in-process-daemon.js";
import { askRelayed, relayContext } from "./helpers/relayed-request.js";
import { errorCode } from "./helpers/responses.js";

/** The time-limit error of a channel whose overall cap is 200 ms, with what to change. */
const TIMEOUT_AT_200_MS =
  /^The language model did not finish within 0\.2 s \(the overall limit\)\. It had not written a token yet: .* Raise the limits in the app/;

const SAVED_KEY = "sk-test-saved-key-0123456789";
const NEW_KEY = "sk-test-new-key-9876543210";
let model: FakeModel;
let daemon: InProcessDaemon | undefined;

beforeEach(async () => {
  model = await startFakeModel();
});

afterEach(async () => {
  await daemon?.close();
  daemon = undefined;
  await model.close();
});

function savedChannel(overrides: object = {}) {
  return { baseUrl: model.url, apiKey: SAVED_KEY, model: "fake-model", ...overrides };
}

async function startWithSavedChannel(overrides: object = {}) {
  daemon = await startInProcessDaemon({ config: { llm: { primary: savedChannel(overrides) } } });
  return daemon;
}

async function testLlm(body?: unknown) {
  if (!daemon) throw new Error("no daemon");
  const response = await daemon.request("/llm/test", { method: "POST", body });
  const text = await response.text();
  return { status: response.status, text, json: JSON.parse(text) as unknown };
}

async function readConfig(dataDir: string) {
  return DaemonConfig.parse(JSON.parse(await readFile(join(dataDir, CONFIG_FILE), "utf8")));
}

describe("POST /llm/test", () => {
  it("tests the saved channel with the same structured call as a brief, for no body and for {}", async () => {
    await startWithSavedChannel();

    for (const body of [undefined, {}]) {
      const { status, json } = await testLlm(body);
      expect(status).toBe(200);
      const result = LlmTestResponse.parse(json);
      expect(result).toMatchObject({ ok: true, model: "fake-model" });
    }
    const requests = model.chatRequests();
    expect(requests).toHaveLength(2);
    expect(requests[0]?.headers.authorization).toBe(`Bearer ${SAVED_KEY}`);
    expect(requests[0]?.body).toMatchObject({ response_format: { type: "json_schema" } });
    // Through the daemon's own fetch (node:http, no compression asked): no 300 s wait for the head as in Node's.
    expect(requests[0]?.headers["accept-encoding"]).toBe("identity");
  });

  it("tests a given channel with a new key without saving it", async () => {
    const other = await startFakeModel({ apiKey: NEW_KEY, models: ["other-model"] });
    try {
      const { dataDir } = await startWithSavedChannel();
      const given = {
        baseUrl: other.url,
        apiKey: NEW_KEY,
        model: "other-model",
        structuredOutput: "json_object",
      };

      const { status, json, text } = await testLlm(given);

      expect(status).toBe(200);
      expect(LlmTestResponse.parse(json)).toMatchObject({ ok: true, model: "other-model" });
      expect(text).not.toContain(NEW_KEY);
      expect(other.chatRequests()[0]?.headers.authorization).toBe(`Bearer ${NEW_KEY}`);
      expect(other.chatRequests()[0]?.body).toMatchObject({ response_format: { type: "json_object" } });
      expect((await readConfig(dataDir)).llm?.primary).toEqual(savedChannel());
    } finally {
      await other.close();
    }
  });

  it("uses the saved key for a given channel without apiKey", async () => {
    await startWithSavedChannel();

    const { json } = await testLlm({ baseUrl: model.url, model: "fake-model" });

    expect(LlmTestResponse.parse(json).ok).toBe(true);
    expect(model.chatRequests()[0]?.headers.authorization).toBe(`Bearer ${SAVED_KEY}`);
  });

  it("answers ok:false with the model's reason for a 401, never with the key in the answer or the log", async () => {
    const guarded = await startFakeModel({ apiKey: "sk-test-the-right-key-0123" });
    try {
      await startWithSavedChannel({ baseUrl: guarded.url });

      const { status, json, text } = await testLlm({});

      expect(status).toBe(200);
      expect(json).toEqual({
        ok: false,
        error: {
          code: "llm_call_failed",
          message: "The language model answered HTTP 401: Incorrect API key provided.",
        },
        latencyMs: expect.any(Number),
      });
      expect(text).not.toContain(SAVED_KEY);
      expect(daemon?.logLines.join("\n")).toContain("language model test: fake-model");
      expect(daemon?.logLines.join("\n")).not.toContain(SAVED_KEY);
    } finally {
      await guarded.close();
    }
  });

  it("answers ok:false when the model does not answer within the channel's timeout", async () => {
    await startWithSavedChannel({ timeoutMs: 200 });
    model.script(answers.hang());

    const { status, json } = await testLlm();

    expect(status).toBe(200);
    expect(json).toEqual({
      ok: false,
      error: { code: "llm_call_failed", message: expect.stringMatching(TIMEOUT_AT_200_MS) },
      latencyMs: expect.any(Number),
    });
    expect((json as { latencyMs: number }).latencyMs).toBeGreaterThanOrEqual(200);
  });

  it("keeps the saved limit for a given channel", async () => {
    await startWithSavedChannel({ timeoutMs: 200 });
    model.script(answers.hang());

    const { json } = await testLlm({ baseUrl: model.url, apiKey: NEW_KEY, model: "fake-model" });

    expect(LlmTestResponse.parse(json)).toMatchObject({
      ok: false,
      error: { message: expect.stringMatching(TIMEOUT_AT_200_MS) },
    });
  });

  it.each([
    ["no body", undefined],
    ["{}", {}],
    ["a channel without apiKey", { baseUrl: "http://127.0.0.1:9/v1", model: "m" }],
  ])("refuses %s with 422 llm_key_required when no key is saved", async (_label, body) => {
    daemon = await startInProcessDaemon();
    const response = await daemon.request("/llm/test", { method: "POST", body });
    expect(response.status).toBe(422);
    expect(await errorCode(response)).toBe("llm_key_required");
    expect(model.chatRequests()).toHaveLength(0);
  });

  it.each([
    ["an address that is not http(s)", { baseUrl: "ftp://model.example", model: "m", apiKey: NEW_KEY }],
    ["a key alone", { apiKey: NEW_KEY }],
  ])("refuses %s with 422 invalid_llm_settings, without the key in the answer", async (_label, body) => {
    const started = await startWithSavedChannel();
    const response = await started.request("/llm/test", { method: "POST", body });
    const text = await response.text();
    expect(response.status).toBe(422);
    expect(JSON.parse(text).error.code).toBe("invalid_llm_settings");
    expect(text).not.toContain(NEW_KEY);
  });

  it("answers 405 to other methods", async () => {
    const started = await startWithSavedChannel();
    const response = await started.request("/llm/test");
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("POST");
  });

  it("runs when relayed without a body, on the saved channel, and seals its answer", async () => {
    const started = await startWithSavedChannel();
    const e2e = started.config.config.e2e;
    if (!e2e) throw new Error("no key");
    const key = parseKey(e2e.key);
    const answer = await askRelayed(await relayContext(started, key), { method: "POST", path: "/llm/test" });

    if (answer.type !== "settings-result") throw new Error(`expected a settings-result, got ${answer.type}`);
    const result = SettingsResultPlaintext.parse(
      await openJson(key, aad.settingsResult(answer.requestId), answer.sealed),
    );
    expect(result.status).toBe(200);
    expect(LlmTestResponse.parse(result.body)).toMatchObject({ ok: true, model: "fake-model" });
    expect(model.chatRequests()).toHaveLength(1);
  });
});
