import { describe, expect, it } from "vitest";
import { LlmTestRequest, LlmTestResponse } from "../src/index.js";

describe("POST /llm/test shapes", () => {
  it("accepts a channel as for PUT /llm/settings, with or without apiKey", () => {
    const channel = { baseUrl: "http://127.0.0.1:11434/v1", model: "qwen3" };
    expect(LlmTestRequest.parse(channel)).toEqual(channel);
    expect(LlmTestRequest.parse({ ...channel, apiKey: "sk-abc" })).toEqual({ ...channel, apiKey: "sk-abc" });
  });

  it("accepts {} for the saved channel", () => {
    expect(LlmTestRequest.parse({})).toEqual({});
  });

  it.each([
    [{ model: "m" }, "a channel without its address"],
    [{ baseUrl: "ftp://host/", model: "m" }, "a non-http address"],
    [{ baseUrl: "http://h/", model: "m", structuredOutput: "yaml" }, "an unknown structured output"],
    [{ apiKey: "sk-abc" }, "a key alone"],
  ])("rejects %j (%s)", (body, _reason) => {
    expect(LlmTestRequest.safeParse(body).success).toBe(false);
  });

  it("answers the model and its latency, or a failure code and message", () => {
    const works = { ok: true, model: "qwen3", latencyMs: 12 };
    expect(LlmTestResponse.parse(works)).toEqual(works);
    const fails = {
      ok: false,
      error: { code: "llm_call_failed", message: "The language model answered HTTP 401." },
    };
    expect(LlmTestResponse.parse(fails)).toEqual(fails);
    expect(LlmTestResponse.safeParse({ ok: true, model: "m", latencyMs: -1 }).success).toBe(false);
    expect(LlmTestResponse.safeParse({ ok: false, error: { code: "other", message: "x" } }).success).toBe(
      false,
    );
  });
});
