import { describe, expect, it } from "vitest";
import { reportWithinBudget } from "./report-cut.js";
import { estimateTokens } from "./token-estimate.js";

const prose = (count: number) =>
  Array.from({ length: count }, (_, index) => `Line ${index + 1}: the agent changed one more thing here.`);

describe("reportWithinBudget", () => {
  it("gives a report that fits as written", () => {
    const text = prose(10).join("\n");

    expect(reportWithinBudget(text, 1000)).toEqual({ text, isCut: false, originalChars: text.length });
  });

  it("first shortens long code blocks and file lists, and stops there when that fits", () => {
    const code = Array.from({ length: 40 }, (_, index) => `  const value${index} = compute(${index});`);
    const files = Array.from({ length: 30 }, (_, index) => `- src/module-${index}/index.ts`);
    const text = ["Done.", "```ts", ...code, "```", "Changed files:", ...files, "All 12 tests pass."].join(
      "\n",
    );

    const given = reportWithinBudget(text, 250);

    expect(given.isCut).toBe(true);
    expect(given.text).toContain("[… 34 lines of code left out …]");
    expect(given.text).toContain("[… 25 more files …]");
    expect(given.text).toContain("  const value3 = compute(3);");
    expect(given.text).toContain("  const value39 = compute(39);");
    expect(given.text).toContain("- src/module-29/index.ts");
    expect(given.text.startsWith("Done.")).toBe(true);
    expect(given.text.endsWith("All 12 tests pass.")).toBe(true);
    expect(estimateTokens(given.text)).toBeLessThanOrEqual(250);
  });

  it("then keeps the head and the tail within the budget and marks the middle left out", () => {
    const lines = prose(400);

    const given = reportWithinBudget(lines.join("\n"), 600);

    expect(estimateTokens(given.text)).toBeLessThanOrEqual(600);
    expect(given.text.startsWith("Line 1:")).toBe(true);
    expect(given.text.endsWith("Line 400: the agent changed one more thing here.")).toBe(true);
    const marker = /\[… (\d+) lines of the report left out here …\]/.exec(given.text);
    const keptLines = given.text.split("\n").length - 1;
    expect(Number(marker?.[1])).toBe(400 - keptLines);
  });

  it("cuts a single line too long for the budget by characters", () => {
    const text = "x".repeat(30_000);

    const given = reportWithinBudget(text, 500);

    expect(given.isCut).toBe(true);
    expect(estimateTokens(given.text)).toBeLessThanOrEqual(500);
  });
});
