import type { BriefDraft } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { checkBrief, maxSpokenChars, missingNumbers } from "./checks.js";

function draft(spoken: string, criticalFacts: BriefDraft["criticalFacts"] = []): BriefDraft {
  return { title: "t", spoken, cards: [], openQuestions: [], criticalFacts };
}

describe("checkBrief", () => {
  it("passes a draft whose facts are covered and whose spoken part fits", () => {
    const check = checkBrief(
      "x".repeat(300),
      draft("All 42 tests pass.", [{ fact: "42 tests pass.", covered: true }]),
    );

    expect(check).toMatchObject({ passed: true, uncoveredFacts: [], maxSpokenChars: 180, isTooLong: false });
    expect(check.spokenRatio).toBeCloseTo(18 / 300);
  });

  it("fails a fact the model marks uncovered", () => {
    const check = checkBrief("short", draft("Done.", [{ fact: "Deploy is blocked.", covered: false }]));

    expect(check.passed).toBe(false);
    expect(check.uncoveredFacts).toEqual([
      { fact: "Deploy is blocked.", reason: "not_covered", missingNumbers: [] },
    ]);
  });

  it("fails a fact marked covered whose numbers the spoken part lacks", () => {
    const check = checkBrief(
      "short",
      draft("Most tests pass.", [{ fact: "41 of 42 tests pass.", covered: true }]),
    );

    expect(check.facts).toEqual([{ fact: "41 of 42 tests pass.", covered: false }]);
    expect(check.uncoveredFacts[0]).toMatchObject({
      reason: "numbers_missing",
      missingNumbers: ["41", "42"],
    });
  });

  it("applies the 60 % rule from 300 characters of original on", () => {
    expect(maxSpokenChars("x".repeat(299))).toBeNull();
    expect(maxSpokenChars("x".repeat(300))).toBe(180);
    expect(checkBrief("x".repeat(300), draft("y".repeat(181))).isTooLong).toBe(true);
    expect(checkBrief("x".repeat(300), draft("y".repeat(180))).isTooLong).toBe(false);
    expect(checkBrief("x".repeat(299), draft("y".repeat(400))).isTooLong).toBe(false);
  });

  it("counts characters as code points", () => {
    const check = checkBrief("😀".repeat(300), draft("😀".repeat(180)));

    expect(check).toMatchObject({ originalChars: 300, spokenChars: 180, isTooLong: false });
  });
});

describe("missingNumbers", () => {
  it("matches numbers whatever the group and decimal separators", () => {
    expect(missingNumbers("1,234 users", "1.234 usuarios")).toEqual([]);
    expect(missingNumbers("1,234 users", "1 234 utilisateurs")).toEqual([]);
    expect(missingNumbers("3.5 seconds", "3,5 segundos")).toEqual([]);
    expect(missingNumbers("Steps 1, 2 and 3", "steps 1,2,3")).toEqual([]);
    expect(missingNumbers("migration 0017", "migration 17")).toEqual([]);
    expect(missingNumbers("４２ tests", "42 pruebas")).toEqual([]);
  });

  it("names the numbers that are missing", () => {
    expect(missingNumbers("41 of 42 tests", "42 tests")).toEqual(["41"]);
    expect(missingNumbers("no numbers here", "nothing")).toEqual([]);
  });
});
