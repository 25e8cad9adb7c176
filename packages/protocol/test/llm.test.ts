import { describe, expect, it } from "vitest";
import {
  chatCompletionsUrl,
  LlmChannel,
  LlmSettingsResponse,
  PutLlmSettingsRequest,
  secretHint,
} from "../src/index.js";

describe("language-model channel", () => {
  it("accepts the spec's PUT /llm/settings body and defaults structuredOutput to json_schema", () => {
    const body = { baseUrl: "http://127.0.0.1:11434/v1", apiKey: "sk-abc", model: "qwen3" };
    expect(PutLlmSettingsRequest.parse(body)).toEqual(body);
    expect(LlmChannel.parse(body).structuredOutput).toBe("json_schema");
  });

  it("accepts a body without apiKey (the saved key is kept)", () => {
    expect(
      PutLlmSettingsRequest.safeParse({ baseUrl: "https://api.example.com/v1", model: "m" }).success,
    ).toBe(true);
  });

  it.each([
    [{ model: "m" }, "missing baseUrl"],
    [{ baseUrl: "ftp://host/", model: "m" }, "non-http baseUrl"],
    [{ baseUrl: "not a url", model: "m" }, "malformed baseUrl"],
    [{ baseUrl: "http://h/", model: "" }, "empty model"],
    [{ baseUrl: "http://h/", model: 3 }, "model of the wrong type"],
    [{ baseUrl: "http://h/", model: "m", structuredOutput: "yaml" }, "unknown structured output"],
  ])("rejects %j (%s)", (body, _reason) => {
    expect(PutLlmSettingsRequest.safeParse(body).success).toBe(false);
  });

  it("treats a stored channel missing its key as not configured", () => {
    expect(LlmChannel.safeParse({ baseUrl: "http://h/", model: "m" }).success).toBe(false);
  });

  it("keeps manual timeoutMs and reasoningEffort in the stored channel", () => {
    const channel = LlmChannel.parse({
      baseUrl: "http://h/",
      apiKey: "k",
      model: "m",
      timeoutMs: 60000,
      reasoningEffort: "low",
    });
    expect(channel.timeoutMs).toBe(60000);
    expect(channel.reasoningEffort).toBe("low");
    expect(LlmChannel.safeParse({ ...channel, timeoutMs: -1 }).success).toBe(false);
  });

  it("returns only baseUrl, model, keyHint and structuredOutput, or null", () => {
    const response = {
      channel: { baseUrl: "http://h/", model: "m", keyHint: "****abcd", structuredOutput: "json_object" },
    };
    expect(LlmSettingsResponse.parse(response)).toEqual(response);
    expect(LlmSettingsResponse.parse({ channel: null })).toEqual({ channel: null });
    const parsed = LlmSettingsResponse.parse({ channel: { ...response.channel, apiKey: "secret" } });
    expect(JSON.stringify(parsed)).not.toContain("secret");
  });

  it("masks a key to at most a quarter of it", () => {
    expect(secretHint("sk-1234567890abcdef")).toBe("****cdef");
    expect(secretHint("abc")).toBe("****");
    expect(secretHint("abcdefgh")).toBe("****gh");
  });
});

describe("chatCompletionsUrl", () => {
  it.each([
    ["http://127.0.0.1:11434/v1", "http://127.0.0.1:11434/v1/chat/completions"],
    ["http://127.0.0.1:11434/v1/", "http://127.0.0.1:11434/v1/chat/completions"],
    ["https://api.example.com", "https://api.example.com/chat/completions"],
    ["https://api.example.com/v1?api-version=2", "https://api.example.com/v1/chat/completions?api-version=2"],
  ])("appends /chat/completions to %s", (baseUrl, expected) => {
    expect(chatCompletionsUrl(baseUrl).href).toBe(expected);
  });
});
