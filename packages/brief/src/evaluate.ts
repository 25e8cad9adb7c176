import type { Brief, BriefStatus, LlmChannel, Report } from "@ringback/protocol";
import { characterCount, maxSpokenChars } from "./checks.js";
import { generateBrief } from "./generate-brief.js";
import { readReportFile } from "./read-report-file.js";

/** One report's outcome in `ringback brief-eval`. */
export interface BriefEvaluation {
  /** The file path, or the report's event id when a report was given. */
  name: string;
  status: BriefStatus;
  error: string | null;
  criticalFacts: number;
  /** Facts the spoken paragraph covers (checked). */
  coveredFacts: number;
  /** Facts the spoken paragraph lacks; they are read in the supplementary paragraph. */
  uncoveredFacts: string[];
  hasSupplementary: boolean;
  spokenChars: number;
  originalChars: number;
  /** spokenChars / originalChars (0 for an empty original). */
  spokenRatio: number;
  /** False when the original is under 300 characters: the 60 % rule does not apply. */
  isRatioRuleApplied: boolean;
  isTooLong: boolean;
  llmCalls: number;
  /** Wall time of the whole generation, rewrite included. */
  durationMs: number;
  brief: Brief;
}

export interface EvaluateBriefsOptions {
  /** Report files (see `readReportFile`). */
  files?: string[];
  reports?: Report[];
  channel: LlmChannel | null;
  language: string;
  signal?: AbortSignal;
  fetch?: typeof fetch;
}

function evaluation(name: string, report: Report, brief: Brief, durationMs: number): BriefEvaluation {
  const spokenChars = characterCount(brief.spoken);
  const originalChars = characterCount(report.text);
  const limit = maxSpokenChars(report.text);
  return {
    name,
    status: brief.meta.status,
    error: brief.meta.error,
    criticalFacts: brief.criticalFacts.length,
    coveredFacts: brief.criticalFacts.filter((fact) => fact.covered).length,
    uncoveredFacts: brief.criticalFacts.filter((fact) => !fact.covered).map((fact) => fact.fact),
    hasSupplementary: brief.supplementary !== null,
    spokenChars,
    originalChars,
    spokenRatio: originalChars === 0 ? 0 : spokenChars / originalChars,
    isRatioRuleApplied: limit !== null,
    isTooLong: limit !== null && spokenChars > limit,
    llmCalls: brief.meta.llmCalls,
    durationMs,
    brief,
  };
}

/**
 * Generates the brief of each report with the given channel, one after another, without sending anything,
 * and measures it. Files are all read before the first model call, so a bad file costs no model time.
 */
export async function evaluateBriefs(options: EvaluateBriefsOptions): Promise<BriefEvaluation[]> {
  const files = options.files ?? [];
  const named: { name: string; report: Report }[] = [];
  for (const file of files) named.push({ name: file, report: await readReportFile(file) });
  for (const report of options.reports ?? []) named.push({ name: report.eventId, report });

  const results: BriefEvaluation[] = [];
  for (const { name, report } of named) {
    const started = performance.now();
    const brief = await generateBrief({
      report,
      channel: options.channel,
      language: options.language,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    results.push(evaluation(name, report, brief, performance.now() - started));
  }
  return results;
}
