import {
  type LlmChannel,
  MODEL_CALL_FIT_MARGIN,
  type ModelEndpointKind,
  modelCallLimits,
  type Report,
  timeoutToFitMs,
} from "@ringback/protocol";
import { reportBudgetTokens } from "./brief-budget.js";
import { type ModelCallStats, outputTokensPerSecond, promptTokensPerSecond, seconds } from "./call-stats.js";
import { briefOutputTokens } from "./output-limit.js";
import { estimateTokens } from "./token-estimate.js";

/** The two reports a connection test times a brief for: about 30 and about 350 lines of an agent's reply. */
const SAMPLE_REPORTS = [
  { report: "typical", lines: 30, chars: 1_800 },
  { report: "long", lines: 350, chars: 21_000 },
] as const;

/** How long one sample report's brief would take at the measured speeds. */
export interface BriefTimeEstimate {
  report: "typical" | "long";
  lines: number;
  /** What the model would be given: the prompt (the report cut to the budget) and the output limit. */
  promptTokens: number;
  outputTokens: number;
  /** One call at the measured speeds; null when a speed could not be measured. */
  ms: number | null;
  /** Whether that is within the overall limit; null when unknown. */
  fitsTimeout: boolean | null;
}

export interface ConnectionTiming {
  endpoint: ModelEndpointKind;
  timeoutMs: number;
  noProgressTimeoutMs: number;
  promptTokensPerSecond: number | null;
  outputTokensPerSecond: number | null;
  estimates: BriefTimeEstimate[];
  /** What to change when a sample report will not fit, in one or two sentences; null when both fit. */
  advice: string | null;
}

/**
 * From a connection test's measurements: how long a typical and a long report's brief would take against the
 * channel's limits, and what to change when one will not fit.
 */
export function connectionTiming(
  channel: LlmChannel,
  stats: ModelCallStats,
  language: string,
): ConnectionTiming {
  const limits = modelCallLimits(channel);
  const promptRate = promptTokensPerSecond(stats);
  const outputRate = outputTokensPerSecond(stats);
  const estimates = SAMPLE_REPORTS.map(({ report, lines, chars }) => {
    const text = "x".repeat(chars);
    const sample: Report = {
      eventId: "sample",
      source: "claude-code",
      occurredAt: new Date(0).toISOString(),
      text,
    };
    const budget = reportBudgetTokens(sample, channel, language);
    const reportTokens = Math.min(estimateTokens(text), budget);
    const promptTokens = stats.promptTokens + reportTokens;
    const outputTokens = briefOutputTokens(text);
    const ms =
      promptRate === null || outputRate === null
        ? null
        : Math.round((promptTokens / promptRate + outputTokens / outputRate) * 1000);
    return {
      report,
      lines,
      promptTokens,
      outputTokens,
      ms,
      fitsTimeout: ms === null ? null : ms * MODEL_CALL_FIT_MARGIN <= limits.timeoutMs,
    };
  });
  const tooSlow = estimates.filter((estimate) => estimate.fitsTimeout === false);
  const slowest = tooSlow.at(-1);
  const advice =
    slowest?.ms == null
      ? null
      : `A ${slowest.report} report (about ${slowest.lines} lines) needs about ${seconds(slowest.ms)} per call, over the overall limit of ${seconds(limits.timeoutMs)}: set the limit to at least ${Math.ceil(timeoutToFitMs(slowest.ms) / 60_000)} min (\`ringback model limits --timeout ${timeoutToFitMs(slowest.ms) / 1000}\`, or the app's Settings › Your computer › Language model for briefs), or choose a smaller or faster model.`;
  return {
    endpoint: limits.endpoint,
    timeoutMs: limits.timeoutMs,
    noProgressTimeoutMs: limits.noProgressTimeoutMs,
    promptTokensPerSecond: promptRate,
    outputTokensPerSecond: outputRate,
    estimates,
    advice,
  };
}
