import { describe, expect, it } from "vitest";
import {
  type ComputerModelForm,
  computerModelForm,
  computerModelRequest,
  customLimit,
  modelLimitDefaults,
} from "./computer-model-form.js";

const SAVED = {
  baseUrl: "http://127.0.0.1:8080/v1",
  model: "qwen3",
  keyHint: "****abcd",
  structuredOutput: "json_schema" as const,
};

const typed: ComputerModelForm = {
  baseUrl: "http://127.0.0.1:8080/v1",
  model: "qwen3",
  apiKey: "",
  structuredOutput: "json_schema",
  timeout: { useDefault: true, seconds: "" },
  noProgress: { useDefault: true, seconds: "" },
  outputCap: { useDefault: true, tokens: "" },
};

describe("the form of Settings › Language model for briefs: the two time limits", () => {
  it("opens a channel without limits on the defaults, and saved limits in seconds", () => {
    expect(computerModelForm(null)).toMatchObject({
      timeout: { useDefault: true, seconds: "" },
      noProgress: { useDefault: true, seconds: "" },
    });
    expect(computerModelForm(SAVED)).toMatchObject({
      timeout: { useDefault: true, seconds: "" },
      noProgress: { useDefault: true, seconds: "" },
    });
    expect(computerModelForm({ ...SAVED, timeoutMs: 1_200_000, noProgressTimeoutMs: 1500 })).toMatchObject({
      timeout: { useDefault: false, seconds: "1200" },
      noProgress: { useDefault: false, seconds: "1.5" },
    });
  });

  it("tells the defaults of the typed address: a local model's 10 min and 60 s, a hosted one's 2 min and 30 s", () => {
    expect(modelLimitDefaults(" http://127.0.0.1:8080/v1 ")).toEqual({
      endpoint: "local",
      timeoutSeconds: 600,
      noProgressSeconds: 60,
    });
    expect(modelLimitDefaults("http://ollama:11434/v1")).toMatchObject({ endpoint: "local" });
    expect(modelLimitDefaults("https://api.openai.com/v1")).toEqual({
      endpoint: "hosted",
      timeoutSeconds: 120,
      noProgressSeconds: 30,
    });
    // Nothing typed yet reads as hosted, as the computer would take it.
    expect(modelLimitDefaults("")).toMatchObject({ endpoint: "hosted" });
  });

  it("sends null for a limit on the default and milliseconds for a number of seconds", () => {
    expect(computerModelRequest(typed, SAVED)).toEqual({
      request: {
        baseUrl: "http://127.0.0.1:8080/v1",
        model: "qwen3",
        structuredOutput: "json_schema",
        timeoutMs: null,
        noProgressTimeoutMs: null,
        maxOutputTokens: null,
      },
    });
    const limited = computerModelRequest(
      { ...typed, timeout: { useDefault: false, seconds: " 1800 " }, noProgress: customLimit(90) },
      SAVED,
    );
    expect(limited).toMatchObject({ request: { timeoutMs: 1_800_000, noProgressTimeoutMs: 90_000 } });
    // A decimal comma is read as a point.
    expect(
      computerModelRequest({ ...typed, noProgress: { useDefault: false, seconds: "2,5" } }, SAVED),
    ).toMatchObject({ request: { noProgressTimeoutMs: 2500 } });
  });

  it("takes 1 s and 1 h, and refuses anything outside or not a number", () => {
    expect(computerModelRequest({ ...typed, timeout: customLimit(1) }, SAVED)).toMatchObject({
      request: { timeoutMs: 1000 },
    });
    expect(computerModelRequest({ ...typed, timeout: customLimit(3600) }, SAVED)).toMatchObject({
      request: { timeoutMs: 3_600_000 },
    });
    for (const seconds of ["0", "0.9", "3600.5", "-5", "1e3", "soon", ""]) {
      expect(computerModelRequest({ ...typed, noProgress: { useDefault: false, seconds } }, SAVED)).toEqual({
        problem: { kind: "model-limit", detail: null },
      });
    }
  });

  it("ignores what a field on the default still holds", () => {
    expect(
      computerModelRequest({ ...typed, timeout: { useDefault: true, seconds: "not a number" } }, SAVED),
    ).toMatchObject({ request: { timeoutMs: null } });
  });
});

describe("the form of Settings › Language model for briefs: the output cap", () => {
  it("opens a channel without a cap on the default, and a saved cap in tokens", () => {
    expect(computerModelForm(null).outputCap).toEqual({ useDefault: true, tokens: "" });
    expect(computerModelForm(SAVED).outputCap).toEqual({ useDefault: true, tokens: "" });
    expect(computerModelForm({ ...SAVED, maxOutputTokens: 2048 }).outputCap).toEqual({
      useDefault: false,
      tokens: "2048",
    });
  });

  it("sends null on the default and the tokens typed, from 256 to 32768", () => {
    expect(computerModelRequest(typed, SAVED)).toMatchObject({ request: { maxOutputTokens: null } });
    for (const [tokens, sent] of [
      [" 4096 ", 4096],
      ["256", 256],
      ["32768", 32_768],
    ] as const) {
      expect(
        computerModelRequest({ ...typed, outputCap: { useDefault: false, tokens } }, SAVED),
      ).toMatchObject({
        request: { maxOutputTokens: sent },
      });
    }
  });

  it("refuses a cap outside 256 to 32768 or not a whole number, and ignores what a field on the default holds", () => {
    for (const tokens of ["255", "32769", "0", "-512", "1024.5", "1e3", "many", ""]) {
      expect(computerModelRequest({ ...typed, outputCap: { useDefault: false, tokens } }, SAVED)).toEqual({
        problem: { kind: "model-output-cap", detail: null },
      });
    }
    expect(
      computerModelRequest({ ...typed, outputCap: { useDefault: true, tokens: "not a number" } }, SAVED),
    ).toMatchObject({ request: { maxOutputTokens: null } });
  });
});
