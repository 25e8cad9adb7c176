import { SPOKEN_PARAGRAPH_MAX_RATIO, SPOKEN_RATIO_MIN_ORIGINAL_CHARS } from "@ringback/protocol";
import type { BriefEvaluation } from "./evaluate.js";

const MAX_PERCENT = Math.round(SPOKEN_PARAGRAPH_MAX_RATIO * 100);

/** Why one evaluation fails the run, or an empty list. */
export function evaluationProblems(result: BriefEvaluation): string[] {
  const problems: string[] = [];
  if (result.status === "failed") problems.push("brief failed");
  if (result.uncoveredFacts.length > 0) problems.push("critical fact uncovered");
  if (result.isTooLong) problems.push(`spoken part over ${MAX_PERCENT} % of the original`);
  return problems;
}

/**
 * True when `brief-eval` must exit 1: a critical fact is not covered by the spoken paragraph (even if the
 * supplementary paragraph reads it), the 60 % rule is broken, or a brief failed.
 */
export function evaluationFailed(results: readonly BriefEvaluation[]): boolean {
  return results.some((result) => evaluationProblems(result).length > 0);
}

function percent(ratio: number): string {
  return `${Math.round(ratio * 100)} %`;
}

function table(rows: string[][]): string {
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? "").length))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/** The `brief-eval` report: one row per report, its problems under it, and a summary line. */
export function formatEvaluation(results: readonly BriefEvaluation[]): string {
  const rows = [["report", "status", "facts covered", "spoken/original", "calls", "time"]];
  for (const result of results) {
    rows.push([
      result.name,
      result.status,
      `${result.coveredFacts}/${result.criticalFacts}`,
      `${percent(result.spokenRatio)}${result.isRatioRuleApplied ? "" : "*"}${result.isTooLong ? " (too long)" : ""}`,
      String(result.llmCalls),
      `${(result.durationMs / 1000).toFixed(1)} s`,
    ]);
  }
  const lines = [table(rows)];
  for (const result of results) {
    const details = [
      ...(result.error ? [`error: ${result.error}`] : []),
      ...result.uncoveredFacts.map((fact) => `uncovered: ${fact}`),
    ];
    if (details.length > 0) lines.push("", `${result.name}:`, ...details.map((detail) => `  ${detail}`));
  }
  if (results.some((result) => !result.isRatioRuleApplied)) {
    lines.push(
      "",
      `* original under ${SPOKEN_RATIO_MIN_ORIGINAL_CHARS} characters: the ${MAX_PERCENT} % rule does not apply.`,
    );
  }
  const failing = results.filter((result) => evaluationProblems(result).length > 0).length;
  lines.push(
    "",
    `${results.length} report${results.length === 1 ? "" : "s"}: ${results.length - failing} passed, ${failing} failed.`,
  );
  return lines.join("\n");
}
