import { type LlmTestTiming, MODEL_CALL_LIMIT_MAX_MS, timeoutToFitMs } from "@ringback/protocol";
import type { ComputerTexts } from "../i18n/texts/computer.js";

/** One sample report's brief at the speeds the connection test measured. */
export interface ReportTimeLine {
  readonly report: "typical" | "long";
  readonly lines: number;
  /** About how long one call takes, in milliseconds; null when a speed could not be measured. */
  readonly ms: number | null;
  /** Whether that fits the overall limit with the margin; null when unknown. */
  readonly fits: boolean | null;
}

/** What to change so the slowest sample report fits: a longer overall limit, or a faster model. */
export type TimingAdvice =
  | {
      readonly kind: "raise-timeout";
      readonly report: "typical" | "long";
      readonly lines: number;
      readonly neededMs: number;
      /** The least overall limit that fits, in whole seconds: what "use it" puts in the form. */
      readonly suggestedSeconds: number;
    }
  | {
      readonly kind: "faster-model";
      readonly report: "typical" | "long";
      readonly lines: number;
      readonly neededMs: number;
    };

/** The connection test's timing as Settings › Language model for briefs shows it. */
export interface ModelTimingView {
  /** Prompt and output tokens per second; null when the model did not stream enough to tell. */
  readonly promptTokensPerSecond: number | null;
  readonly outputTokensPerSecond: number | null;
  /** The limits the test ran with (the typed ones, else the endpoint kind's defaults). */
  readonly timeoutMs: number;
  readonly noProgressTimeoutMs: number;
  readonly reports: readonly ReportTimeLine[];
  /** Null when every sample report fits, or when how long they take is not known. */
  readonly advice: TimingAdvice | null;
}

/**
 * From a `POST /llm/test` answer's timing: the speeds, the typical (30-line) and long (350-line) report against the
 * overall limit, and, for the slowest that will not fit, the overall limit to set (or, past the 1-hour most, a
 * faster model). The advice is worded here, in the interface language, not taken from the computer's English.
 */
export function modelTimingView(timing: LlmTestTiming): ModelTimingView {
  const reports = timing.estimates.map(({ report, lines, ms, fitsTimeout }) => ({
    report,
    lines,
    ms,
    fits: fitsTimeout,
  }));
  const slowest = reports
    .filter((line): line is ReportTimeLine & { ms: number } => line.fits === false && line.ms !== null)
    .reduce<(ReportTimeLine & { ms: number }) | null>(
      (worst, line) => (worst === null || line.ms > worst.ms ? line : worst),
      null,
    );
  let advice: TimingAdvice | null = null;
  if (slowest) {
    const needed = timeoutToFitMs(slowest.ms);
    const base = { report: slowest.report, lines: slowest.lines, neededMs: slowest.ms };
    advice =
      needed <= MODEL_CALL_LIMIT_MAX_MS
        ? { kind: "raise-timeout", ...base, suggestedSeconds: needed / 1000 }
        : { kind: "faster-model", ...base };
  }
  return {
    promptTokensPerSecond: timing.promptTokensPerSecond,
    outputTokensPerSecond: timing.outputTokensPerSecond,
    timeoutMs: timing.timeoutMs,
    noProgressTimeoutMs: timing.noProgressTimeoutMs,
    reports,
    advice,
  };
}

/** Seconds as the screen shows them: one decimal under 10 s, whole seconds above. */
function secondsText(ms: number): string {
  const seconds = ms / 1000;
  return seconds < 10 ? (Math.round(seconds * 10) / 10).toString() : Math.round(seconds).toString();
}

/** A speed as shown: one decimal under 10 tokens/s, whole numbers above. */
function rateText(rate: number): string {
  return rate < 10 ? (Math.round(rate * 10) / 10).toString() : Math.round(rate).toString();
}

/** The timing's sentences in the interface language: speeds, the limits tested with, each report, the advice. */
export interface ModelTimingLines {
  readonly speeds: string;
  readonly limits: string;
  readonly reports: readonly string[];
  /** What to change, or that both fit; null when how long a report takes is not known. */
  readonly advice: string | null;
}

export function modelTimingLines(view: ModelTimingView, t: ComputerTexts): ModelTimingLines {
  const limit = secondsText(view.timeoutMs);
  const speeds =
    view.promptTokensPerSecond === null || view.outputTokensPerSecond === null
      ? t.modelSpeedsUnknown
      : t.modelSpeeds(rateText(view.promptTokensPerSecond), rateText(view.outputTokensPerSecond));
  const reports = view.reports.map((line) =>
    t.reportTime(
      line.report === "long",
      line.lines,
      line.ms === null ? null : secondsText(line.ms),
      limit,
      line.fits,
    ),
  );
  const advice = view.advice;
  const isKnown = view.reports.some((line) => line.fits !== null);
  return {
    speeds,
    limits: t.testedLimits(limit, secondsText(view.noProgressTimeoutMs)),
    reports,
    advice:
      advice === null
        ? isKnown
          ? t.reportsFit
          : null
        : advice.kind === "raise-timeout"
          ? t.adviceRaiseTimeout(advice.report === "long", String(advice.suggestedSeconds))
          : t.adviceFasterModel(advice.report === "long", secondsText(advice.neededMs)),
  };
}
