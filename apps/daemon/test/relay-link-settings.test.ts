import { aad, type E2eKey, generateKey, openJson, parseKey, sealJson } from "@ringback/e2e-crypto";
import { type DaemonToRelayMessage, SettingsResultPlaintext } from "@ringback/protocol";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  answerSettingsRequest,
  isLocalOnlyPath,
  type SettingsRequestContext,
} from "../src/runtime/relay-link/settings-request.js";
import { type InProcessDaemon, startInProcessDaemon } from "./helpers/in-process-daemon.js";
import { askRelayed, relayContext, sealedRequest, TEST_COMPUTER_ID } from "./helpers/relayed-request.js";

let daemon: InProcessDaemon;
let key: E2eKey;
let context: SettingsRequestContext;
/** The replay guard's clock: the computer's. */
let computerNow: Date;

beforeEach(async () => {
  daemon = await startInProcessDaemon();
  const e2e = daemon.config.config.e2e;
  if (!e2e) throw new Error("no key");
  key = parseKey(e2e.key);
  computerNow = new Date("2026-11-25T10:00:00.000Z");
  context = await relayContext(daemon, key, { now: () => computerNow });
});

afterEach(async () => {
  await daemon.close();
});

/** Seals a request as a phone does (its clock the computer's) and lets the daemon answer it. */
function relay(plaintext: unknown, sealingKey: E2eKey = key): Promise<DaemonToRelayMessage> {
  return askRelayed(context, plaintext as Parameters<typeof askRelayed>[1], sealingKey, computerNow);
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
    // Sealed by hand: the client library refuses to seal it.
    const plaintext = {
      method: "PATCH",
      path: "llm/settings",
      sentAt: computerNow.toISOString(),
      nonce: "x".repeat(22),
    };
    const sealed = await sealJson(key, aad.settingsRequestTo(TEST_COMPUTER_ID, "req-bad"), plaintext);
    const answer = await answerSettingsRequest(
      { type: "settings-request", requestId: "req-bad", sealed },
      context,
    );
    const result = await openResult(answer);
    expect(result).toMatchObject({ status: 400, body: { error: { code: "invalid_request" } } });
  });
});

describe("a relayed request is taken once, from this computer's devices, within the clock window", () => {
  const read = { method: "GET" as const, path: "/llm/settings" };

  it("refuses the same sealed request a second time with a plaintext 409 replayed_request", async () => {
    const message = await sealedRequest(key, read, computerNow);
    expect((await answerSettingsRequest(message, context)).type).toBe("settings-result");
    expect(await answerSettingsRequest(message, context)).toEqual({
      type: "settings-error",
      requestId: message.requestId,
      error: { code: "replayed_request", message: expect.any(String) },
    });
  });

  it("refuses a request sealed more than 5 minutes before or after the computer's time with 422 stale_request", async () => {
    for (const offsetMs of [-5 * 60_000 - 1000, 5 * 60_000 + 1000]) {
      const message = await sealedRequest(key, read, new Date(computerNow.getTime() + offsetMs));
      expect(await answerSettingsRequest(message, context)).toMatchObject({
        type: "settings-error",
        error: { code: "stale_request" },
      });
    }
    for (const offsetMs of [-5 * 60_000 + 1000, 5 * 60_000 - 1000]) {
      const message = await sealedRequest(key, read, new Date(computerNow.getTime() + offsetMs));
      expect((await answerSettingsRequest(message, context)).type).toBe("settings-result");
    }
  });

  it("remembers what it took across a restart (a new guard on the same data dir)", async () => {
    const message = await sealedRequest(key, read, computerNow);
    expect((await answerSettingsRequest(message, context)).type).toBe("settings-result");
    const restarted = await relayContext(daemon, key, { now: () => computerNow });
    expect(await answerSettingsRequest(message, restarted)).toMatchObject({
      error: { code: "replayed_request" },
    });
  });

  it("refuses a request sealed for another computer of the account, and one an older app sealed, unopened", async () => {
    // Sealed for this test's computer, answered by another computer of the account.
    const message = await sealedRequest(key, read, computerNow);
    const asOther = await answerSettingsRequest(message, { ...context, computerId: "dev_other_computer" });
    expect(asOther).toMatchObject({ type: "settings-error", error: { code: "undecryptable_request" } });
    const olderApp = await sealJson(key, aad.settingsRequest("req-old"), read);
    const answer = await answerSettingsRequest(
      { type: "settings-request", requestId: "req-old", sealed: olderApp },
      context,
    );
    expect(answer).toMatchObject({
      type: "settings-error",
      error: { code: "undecryptable_request", message: expect.stringContaining("older app") },
    });
  });
});

describe("isLocalOnlyPath", () => {
  it("lets the settings paths through", () => {
    for (const path of ["/llm/settings", "/brief/language", "/tracker/settings", "/reports", "/e2ex"]) {
      expect(isLocalOnlyPath(path)).toBe(false);
    }
  });
});
