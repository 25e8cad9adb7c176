import { describe, expect, it } from "vitest";
import {
  MODEL_CALL_LIMITS_DEFAULT_MS,
  modelCallLimits,
  modelEndpointKind,
  PutLlmSettingsRequest,
} from "../src/index.js";

describe("modelEndpointKind", () => {
  it.each([
    "http://127.0.0.1:8080/v1",
    "http://127.4.5.6/v1",
    "http://localhost:11434/v1",
    "http://[::1]:1234/v1",
    "http://10.0.0.7:8080/v1",
    "http://172.20.1.2/v1",
    "http://192.168.1.50:1234/v1",
    "http://169.254.10.1/v1",
    "http://100.101.102.103/v1",
    "http://[fd12:3456::1]/v1",
    "http://[fe80::1]/v1",
    "http://[::ffff:192.168.0.2]/v1",
    "http://studio.local:1234/v1",
    "http://gpu-box.lan/v1",
    "http://model.home.arpa/v1",
    "http://host.docker.internal:11434/v1",
    "http://ollama:11434/v1",
  ])("calls %s local", (baseUrl) => {
    expect(modelEndpointKind(baseUrl)).toBe("local");
  });

  it.each([
    "https://api.openai.com/v1",
    "https://openrouter.ai/api/v1",
    "http://8.8.8.8/v1",
    "http://172.32.0.1/v1",
    "http://100.128.0.1/v1",
    "http://[2001:db8::1]/v1",
    "not a url",
  ])("calls %s hosted", (baseUrl) => {
    expect(modelEndpointKind(baseUrl)).toBe("hosted");
  });
});

describe("modelCallLimits", () => {
  it("takes the endpoint kind's defaults for what the channel leaves out", () => {
    expect(modelCallLimits({ baseUrl: "http://127.0.0.1:8080/v1" })).toEqual({
      endpoint: "local",
      ...MODEL_CALL_LIMITS_DEFAULT_MS.local,
    });
    expect(modelCallLimits({ baseUrl: "https://api.openai.com/v1", noProgressTimeoutMs: 5000 })).toEqual({
      endpoint: "hosted",
      timeoutMs: MODEL_CALL_LIMITS_DEFAULT_MS.hosted.timeoutMs,
      noProgressTimeoutMs: 5000,
    });
  });

  it("gives a local model more time than a hosted one", () => {
    expect(MODEL_CALL_LIMITS_DEFAULT_MS.local.timeoutMs).toBeGreaterThan(
      MODEL_CALL_LIMITS_DEFAULT_MS.hosted.timeoutMs,
    );
    expect(MODEL_CALL_LIMITS_DEFAULT_MS.local.noProgressTimeoutMs).toBeGreaterThan(
      MODEL_CALL_LIMITS_DEFAULT_MS.hosted.noProgressTimeoutMs,
    );
  });
});

describe("PUT /llm/settings limits", () => {
  const channel = { baseUrl: "http://127.0.0.1:8080/v1", model: "qwen3" };

  it("accepts limits in milliseconds, null for the default, or none", () => {
    expect(
      PutLlmSettingsRequest.parse({ ...channel, timeoutMs: 300_000, noProgressTimeoutMs: 45_000 }),
    ).toEqual({
      ...channel,
      timeoutMs: 300_000,
      noProgressTimeoutMs: 45_000,
    });
    expect(PutLlmSettingsRequest.parse({ ...channel, timeoutMs: null })).toEqual({
      ...channel,
      timeoutMs: null,
    });
  });

  it.each([
    ["under a second", { timeoutMs: 999 }],
    ["over an hour", { noProgressTimeoutMs: 3_600_001 }],
    ["not whole", { timeoutMs: 1500.5 }],
    ["a string", { timeoutMs: "60s" }],
  ])("rejects a limit %s", (_label, limits) => {
    expect(PutLlmSettingsRequest.safeParse({ ...channel, ...limits }).success).toBe(false);
  });
});
