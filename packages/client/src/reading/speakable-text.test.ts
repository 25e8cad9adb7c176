import { describe, expect, it } from "vitest";
import { speakableText } from "./speakable-text.js";

describe("speakable text of an original report", () => {
  it("removes markdown marks and leaves code blocks to the screen", () => {
    const markdown = [
      "## Summary",
      "I **fixed** the `parseConfig` bug, see [the PR](https://example.com/pr/1).",
      "- added a test",
      "1. ran the suite",
      "```ts",
      "const x = 1;",
      "```",
      "> quoted _note_",
    ].join("\n");
    expect(
      speakableText(markdown)
        .split("\n")
        .filter((line) => line.trim() !== ""),
    ).toEqual([
      "Summary",
      "I fixed the parseConfig bug, see the PR.",
      "added a test",
      "ran the suite",
      "quoted note",
    ]);
  });

  it("leaves snake_case names and arithmetic alone", () => {
    expect(speakableText("set max_retries to 2*3 now")).toBe("set max_retries to 2*3 now");
  });
});
