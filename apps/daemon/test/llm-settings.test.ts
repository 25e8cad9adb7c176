import { readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { DaemonConfig, LlmSettingsResponse, secretHint } from "@ringback/protocol";
import { afterEach, describe, expect, it } from "vitest";
import { CONFIG_FILE } from "../src/runtime/files/config-file.js";
import { type InProcessDaemon, startInProcessDaemon } from "./helpers/in-process-daemon.js";
import { errorCode } from "./helpers/responses.js";

const API_KEY = "sk-test-secret-key-0123456789";
const channel = { baseUrl: "https://model.example/v1", model: "small-model" };
let daemon: InProcessDaemon;

afterEach(async () => {
  await daemon.close();
});

async function readConfig() {
  return DaemonConfig.parse(JSON.parse(await readFile(join(daemon.dataDir, CONFIG_FILE), "utf8")));
}

function put(body: unknown) {
  return daemon.request("/llm/settings", { method: "PUT", body });
}

describe("/llm/settings", () => {
  it("returns a null channel when none is configured", async () => {
    daemon = await startInProcessDaemon();
    const response = await daemon.request("/llm/settings");
    expect(await response.json()).toEqual({ channel: null });
  });

  it("saves a channel at once, returns its key hint only, and writes daemon.json with mode 600", async () => {
    daemon = await startInProcessDaemon();
    const response = await put({ ...channel, apiKey: API_KEY });
    const text = await response.text();
    expect(response.status).toBe(200);
    expect(text).not.toContain(API_KEY);
    const expected = { ...channel, keyHint: secretHint(API_KEY), structuredOutput: "json_schema" };
    expect(JSON.parse(text)).toEqual({ channel: expected });
    expect(await (await daemon.request("/llm/settings")).json()).toEqual({ channel: expected });
    expect((await readConfig()).llm).toEqual({
      primary: { ...channel, apiKey: API_KEY, structuredOutput: "json_schema" },
    });
    expect((await stat(join(daemon.dataDir, CONFIG_FILE))).mode & 0o777).toBe(0o600);
  });

  it("keeps the saved key when apiKey is left out", async () => {
    daemon = await startInProcessDaemon();
    await put({ ...channel, apiKey: API_KEY });
    const response = await put({ ...channel, model: "bigger-model", structuredOutput: "json_object" });
    expect(response.status).toBe(200);
    expect((await readConfig()).llm?.primary).toMatchObject({ apiKey: API_KEY, model: "bigger-model" });
  });

  it("refuses a save without apiKey when none is saved with 422 llm_key_required", async () => {
    daemon = await startInProcessDaemon();
    const response = await put(channel);
    expect(response.status).toBe(422);
    expect(await errorCode(response)).toBe("llm_key_required");
  });

  it.each([
    ["an address that is not http(s)", { ...channel, baseUrl: "ftp://model.example" }],
    ["an empty model", { ...channel, model: " " }],
    ["an unknown structured output", { ...channel, structuredOutput: "xml" }],
    ["no address", { model: "m" }],
  ])("refuses %s with 422 invalid_llm_settings", async (_label, body) => {
    daemon = await startInProcessDaemon();
    const response = await put({ ...body, apiKey: API_KEY });
    expect(response.status).toBe(422);
    expect(await errorCode(response)).toBe("invalid_llm_settings");
    expect((await readConfig()).llm).toBeUndefined();
  });

  it("keeps manual timeoutMs and reasoningEffort while address and model are unchanged", async () => {
    const manual = { ...channel, apiKey: API_KEY, timeoutMs: 90_000, reasoningEffort: "low" };
    daemon = await startInProcessDaemon({ config: { llm: { primary: manual } } });
    await put({ ...channel, structuredOutput: "json_object" });
    expect((await readConfig()).llm?.primary).toEqual({ ...manual, structuredOutput: "json_object" });
  });

  it.each([
    ["the model", { model: "other-model" }],
    ["the address (its path)", { baseUrl: "https://model.example/v2" }],
  ])("drops a manual reasoningEffort but keeps the limits when %s changes", async (_label, change) => {
    const manual = {
      ...channel,
      apiKey: API_KEY,
      timeoutMs: 90_000,
      noProgressTimeoutMs: 20_000,
      reasoningEffort: "low",
    };
    daemon = await startInProcessDaemon({ config: { llm: { primary: manual } } });
    await put({ ...channel, ...change });
    const primary = (await readConfig()).llm?.primary;
    expect(primary).toMatchObject({ timeoutMs: 90_000, noProgressTimeoutMs: 20_000 });
    expect(primary).not.toHaveProperty("reasoningEffort");
  });

  it("sets both limits, returns them, and resets one to the endpoint's default with null", async () => {
    daemon = await startInProcessDaemon();
    const saved = await put({ ...channel, apiKey: API_KEY, timeoutMs: 900_000, noProgressTimeoutMs: 45_000 });
    expect(LlmSettingsResponse.parse(await saved.json()).channel).toMatchObject({
      timeoutMs: 900_000,
      noProgressTimeoutMs: 45_000,
    });

    const reset = await put({ ...channel, timeoutMs: null });

    const { channel: returned } = LlmSettingsResponse.parse(await reset.json());
    expect(returned).not.toHaveProperty("timeoutMs");
    expect(returned?.noProgressTimeoutMs).toBe(45_000);
    expect((await readConfig()).llm?.primary).toMatchObject({ noProgressTimeoutMs: 45_000 });
    expect((await readConfig()).llm?.primary).not.toHaveProperty("timeoutMs");
  });

  it("sets the output cap, keeps it when a save leaves it out, and resets it with null", async () => {
    daemon = await startInProcessDaemon();
    const saved = await put({ ...channel, apiKey: API_KEY, maxOutputTokens: 4096 });
    expect(LlmSettingsResponse.parse(await saved.json()).channel?.maxOutputTokens).toBe(4096);
    const kept = await put({ ...channel, model: "another-model" });
    expect(LlmSettingsResponse.parse(await kept.json()).channel?.maxOutputTokens).toBe(4096);

    const reset = await put({ ...channel, maxOutputTokens: null });

    expect(LlmSettingsResponse.parse(await reset.json()).channel).not.toHaveProperty("maxOutputTokens");
    expect((await readConfig()).llm?.primary).not.toHaveProperty("maxOutputTokens");
  });

  it.each([
    ["under a second", { timeoutMs: 500 }],
    ["over an hour", { noProgressTimeoutMs: 3_600_001 }],
    ["an output cap too small for a brief", { maxOutputTokens: 100 }],
  ])("refuses a limit %s with 422 invalid_llm_settings", async (_label, limits) => {
    daemon = await startInProcessDaemon();
    const response = await put({ ...channel, apiKey: API_KEY, ...limits });
    expect(response.status).toBe(422);
    expect(await errorCode(response)).toBe("invalid_llm_settings");
  });

  it("replaces the whole llm section: a manual fallback channel is removed, other settings are kept", async () => {
    const config = {
      localPort: 8790,
      custom: { note: "kept" },
      llm: { primary: { ...channel, apiKey: API_KEY }, fallback: { ...channel, apiKey: "other" }, extra: 1 },
    };
    daemon = await startInProcessDaemon({ config });
    await put(channel);
    const saved = await readConfig();
    expect(Object.keys(saved.llm ?? {})).toEqual(["primary"]);
    expect(saved.custom).toEqual({ note: "kept" });
    expect(saved.localPort).toBe(8790);
  });

  it("returns a manually written channel and treats a malformed one as not configured", async () => {
    daemon = await startInProcessDaemon({ config: { llm: { primary: { ...channel, apiKey: API_KEY } } } });
    const { channel: saved } = LlmSettingsResponse.parse(
      await (await daemon.request("/llm/settings")).json(),
    );
    expect(saved?.model).toBe("small-model");
    await daemon.close();
    daemon = await startInProcessDaemon({
      config: { llm: { primary: { baseUrl: channel.baseUrl, apiKey: API_KEY } } },
    });
    expect(await (await daemon.request("/llm/settings")).json()).toEqual({ channel: null });
  });

  it("deletes the llm section and answers a null channel", async () => {
    daemon = await startInProcessDaemon();
    await put({ ...channel, apiKey: API_KEY });
    const response = await daemon.request("/llm/settings", { method: "DELETE" });
    expect(await response.json()).toEqual({ channel: null });
    expect((await readConfig()).llm).toBeUndefined();
    expect(JSON.stringify(await readConfig())).not.toContain(API_KEY);
  });

  it("never writes the key into the log", async () => {
    daemon = await startInProcessDaemon();
    await put({ ...channel, apiKey: API_KEY });
    await put({ ...channel, apiKey: "x" });
    expect(daemon.logLines.join("\n")).not.toContain(API_KEY);
  });
});
