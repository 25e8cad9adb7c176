import { BriefDraft } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { parseStructuredAnswer, stripMarkdownFence } from "./parse-answer.js";

describe("stripMarkdownFence", () => {
  it("strips a fence with or without a language tag", () => {
    expect(stripMarkdownFence('```json\n{"a":1}\n```')).toBe('{"a":1}');
    expect(stripMarkdownFence('\n```\n{"a":1}\n```\n')).toBe('{"a":1}');
    expect(stripMarkdownFence('```JSON\r\n{"a":1}\r\n```')).toBe('{"a":1}');
  });

  it("leaves unfenced text alone", () => {
    expect(stripMarkdownFence('{"a":"```"}')).toBe('{"a":"```"}');
  });
});

describe("parseStructuredAnswer", () => {
  const valid = { title: "t", spoken: "s", cards: [], openQuestions: [], criticalFacts: [] };

  it("returns the validated value", () => {
    expect(parseStructuredAnswer(JSON.stringify(valid), BriefDraft)).toEqual({ ok: true, value: valid });
  });

  it("names at most three schema issues", () => {
    const result = parseStructuredAnswer("{}", BriefDraft);

    expect(result).toEqual({
      ok: false,
      error:
        "The language model's answer does not match the brief schema: title: Invalid input: expected string, received undefined; spoken: Invalid input: expected string, received undefined; cards: Invalid input: expected array, received undefined; and 2 more",
    });
  });
});
