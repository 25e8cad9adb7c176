import { describe, expect, it } from "vitest";
import { SENTENCE_MAX_CHARS, splitSentences } from "./sentences.js";

describe.each([
  ["with Intl.Segmenter", false],
  ["without Intl.Segmenter", true],
])("sentence splitting %s", (_, isSegmenterDisabled) => {
  const split = (text: string, language = "en-US") => splitSentences(text, { language, isSegmenterDisabled });

  it("reads a paragraph sentence by sentence", () => {
    expect(split("The build is green. Two tests were flaky! Should I retry them?")).toEqual([
      "The build is green.",
      "Two tests were flaky!",
      "Should I retry them?",
    ]);
  });

  it("keeps decimal numbers and versions inside one sentence", () => {
    expect(split("Version 2.5 is out. Coverage went from 81.3% to 84.0%.")).toEqual([
      "Version 2.5 is out.",
      "Coverage went from 81.3% to 84.0%.",
    ]);
  });

  it("splits Chinese at its own full stops", () => {
    expect(split("构建完成。测试全部通过！还有问题吗？", "zh-CN")).toEqual([
      "构建完成。",
      "测试全部通过！",
      "还有问题吗？",
    ]);
  });

  it("ends a sentence at a line break, so list items are read one at a time", () => {
    expect(split("Changes\n\nadded the cache\nremoved the flag")).toEqual([
      "Changes",
      "added the cache",
      "removed the flag",
    ]);
  });

  it("drops empty lines and bare punctuation", () => {
    expect(split("  \n ... \n---\nDone.")).toEqual(["Done."]);
  });

  it(`reads a sentence over ${SENTENCE_MAX_CHARS} characters in parts, at commas first`, () => {
    const clause = "the migration touched the accounts table";
    const long = `${Array.from({ length: 8 }, () => clause).join(", ")}.`;
    const parts = split(long);
    expect(parts.length).toBeGreaterThan(1);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(SENTENCE_MAX_CHARS);
    expect(parts.join(" ").replace(/\s+/g, " ")).toBe(long);
  });

  it("cuts an unbroken run longer than the limit", () => {
    const parts = split("x".repeat(SENTENCE_MAX_CHARS * 2 + 1));
    expect(parts.map((part) => part.length)).toEqual([SENTENCE_MAX_CHARS, SENTENCE_MAX_CHARS, 1]);
  });
});
