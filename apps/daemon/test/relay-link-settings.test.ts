import { aad, type E2eKey, generateKey, openJson, parseKey, sealJson } from "@ringback/e2e-crypto";
import { type DaemonToRelayMessage, SettingsResultPlaintext } from "@ringback/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { answerSettingsRequest, isLocalOnlyPath } from "../src/runtime/relay-link/settings-request.js";
import { type InProcessDaemon, startInProcessDaemon, TEST_PORT } from "./helpers/in-process-daemon.js";

let daemon: InProcessDaemon;
let key: E2eKey;

beforeEach(async () => {
  daemon = await startInProcessDaemon();
  const e2e = daemon.config.config.e2e;
  if (!e2e) throw new Error("no key");
  key = parseKey(e2e.key);
});

afterEach(async () => {
  await daemon.close();
});

let requestCount = 0;

/** Seals a request as a phone does and lets the daemon answer it, as it does for one from its link. */
async function relay(plaintext: unknown, sealingKey: E2eKey = key): Promise<DaemonToRelayMessage> {
  requestCount += 1;
  const requestId = `req-${requestCount}`;
  const sealed = await sealJson(sealingKey, aad.settingsRequest(requestId), plaintext);
  return answerSettingsRequest(
    { type: "settings-request", requestId, sealed },
    { key, app: daemon.app, localKey: daemon.localKey, port: TEST_PORT },
  );
}

async function openResult(message: DaemonToRelayMessage) {
  if (message.type !== "settings-result") throw new Error(`expected a settings-result, got ${message.type}`);
  return SettingsResultPlaintext.parse(
    await openJson(key, aad.settingsResult(message.requestId), message.sealed),
  );
}

describe("relayed settings requests", () => {
  it("runs PUT /llm/settings through the local interface and seals its answer", async () => {
    const answer = await relay({
      method: "PUT",
      path: "/llm/settings",
      body: { baseUrl: "http://127.0.0.1:9/v1", apiKey: "sk-relayed-secret-1234", model: "relayed-model" },
    });
    const result = await openResult(answer);
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      channel: {
        baseUrl: "http://127.0.0.1:9/v1",
        model: "relayed-model",
        keyHint: "****1234",
        structuredOutput: "json_schema",
      },
    });
    expect(answer.type === "settings-result" && answer.sealed).not.toContain("relayed-model");
    const local = await daemon.request("/llm/settings");
    expect(((await local.json()) as { channel: { model: string } }).channel.model).toBe("relayed-model");
  });

  it("answers with the local interface's own errors (same guards and handlers)", async () => {
    const invalid = await openResult(
      await relay({ method: "PUT", path: "/llm/settings", body: { baseUrl: "not a url", model: "m" } }),
    );
    expect(invalid.status).toBe(422);
    expect(invalid.body).toMatchObject({ error: { code: "invalid_llm_settings" } });
    const unknown = await openResult(await relay({ method: "GET", path: "/no/such/route" }));
    expect(unknown).toMatchObject({ status: 404, body: { error: { code: "not_found" } } });
    const wrongMethod = await openResult(await relay({ method: "POST", path: "/llm/settings", body: {} }));
    expect(wrongMethod.status).toBe(405);
  });

  it.each([
    "/e2e/key",
    "/E2E/key",
    "//e2e/key",
    "/llm/../e2e/key",
    "/%65%32%65/key",
    "/e2e/key?x=1",
    "/\\e2e\\key",
    "/llm/%2e%2e/e2e/key",
    "/local/pairing",
    "/local/login",
    "/report",
  ])("refuses the local-only path %s with a plaintext 403 not_relayed", async (path) => {
    const answer = await relay({ method: "GET", path });
    expect(answer).toEqual({
      type: "settings-error",
      requestId: expect.any(String),
      error: { code: "not_relayed", message: expect.any(String) },
    });
  });

  it("answers a request sealed with another key with a plaintext 400 undecryptable_request", async () => {
    const answer = await relay({ method: "GET", path: "/llm/settings" }, generateKey());
    expect(answer).toMatchObject({ type: "settings-error", error: { code: "undecryptable_request" } });
  });

  it("answers 400 invalid_request (sealed) to an opened request that is not {method, path, body}", async () => {
    const result = await openResult(await relay({ method: "PATCH", path: "llm/settings" }));
    expect(result).toMatchObject({ status: 400, body: { error: { code: "invalid_request" } } });
  });
});

describe("isLocalOnlyPath", () => {
  it("lets the settings paths through", () => {
    for (const path of ["/llm/settings", "/brief/language", "/tracker/settings", "/reports", "/e2ex"]) {
      expect(isLocalOnlyPath(path)).toBe(false);
    }
  });
});
