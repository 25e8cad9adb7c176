import type { ModelCallLimits } from "@ringback/protocol";

/** What one model call measured: the counts and the times from sending the request. */
export interface ModelCallStats {
  /** The server's count of prompt tokens, else an estimate (`isPromptCounted` false). */
  promptTokens: number;
  isPromptCounted: boolean;
  /** The server's count of output tokens, else the streamed chunks that carried one. */
  outputTokens: number;
  /** From sending the request to the first token and to the last one; null when none came. */
  firstTokenMs: number | null;
  lastTokenMs: number | null;
  /** From sending the request to its end, or to giving up. */
  totalMs: number;
}

/** Prompt tokens read per second (queueing at the server and the network included); null before a token came. */
export function promptTokensPerSecond(stats: ModelCallStats): number | null {
  if (stats.firstTokenMs === null || stats.firstTokenMs <= 0) return null;
  return stats.promptTokens / (stats.firstTokenMs / 1000);
}

/** Output tokens written per second after the first; null with fewer than two tokens. */
export function outputTokensPerSecond(stats: ModelCallStats): number | null {
  if (stats.firstTokenMs === null || stats.lastTokenMs === null || stats.outputTokens < 2) return null;
  const writingMs = stats.lastTokenMs - stats.firstTokenMs;
  return writingMs > 0 ? (stats.outputTokens - 1) / (writingMs / 1000) : null;
}

export function seconds(ms: number): string {
  return `${ms < 10_000 ? (ms / 1000).toFixed(1) : Math.round(ms / 1000)} s`;
}

function perSecond(rate: number): string {
  return `${rate < 10 ? rate.toFixed(1) : Math.round(rate)} tokens/s`;
}

/** Where the limits are changed, as every time-limit message ends. */
const LIMITS_FIX =
  "Raise the limits in the app (Settings › Your computer › Language model for briefs) or with `ringback model limits --timeout <seconds> --no-progress <seconds>`, or choose a smaller or faster model.";

/** What the call had done when it was given up, in one sentence. */
function progressSentence(stats: ModelCallStats): string {
  const prompt = `${stats.isPromptCounted ? "" : "about "}${stats.promptTokens} prompt tokens`;
  if (stats.firstTokenMs === null) {
    return `It had not written a token yet: reading ${prompt} (or finishing another request first) took longer than that.`;
  }
  const rate = outputTokensPerSecond(stats);
  return `It read ${prompt} in ${seconds(stats.firstTokenMs)} and wrote ${stats.outputTokens} tokens${rate === null ? "" : ` at ${perSecond(rate)}`}.`;
}

/** The time this call would need for `outputTokens` at the speeds it showed; null before a token came. */
function neededMs(stats: ModelCallStats, outputTokens: number): number | null {
  const rate = outputTokensPerSecond(stats);
  if (stats.firstTokenMs === null || rate === null) return null;
  return stats.firstTokenMs + (outputTokens / rate) * 1000;
}

/**
 * The error of a call given up for time: which limit, what the model had done by then, how long this brief
 * would have needed at that speed (when known), and what to change.
 */
export function timeLimitError(options: {
  limit: "overall" | "no_progress";
  limits: ModelCallLimits;
  stats: ModelCallStats;
  /** The output limit of the call: what a whole brief may take. */
  outputTokens: number | undefined;
}): string {
  const { limit, limits, stats } = options;
  const first =
    limit === "overall"
      ? `The language model did not finish within ${seconds(limits.timeoutMs)} (the overall limit).`
      : `The language model stopped writing: no token came for ${seconds(limits.noProgressTimeoutMs)} (the no-progress limit).`;
  const needed = options.outputTokens === undefined ? null : neededMs(stats, options.outputTokens);
  const estimate =
    limit === "overall" && needed !== null
      ? ` At that speed a brief of up to ${options.outputTokens} tokens needs about ${seconds(needed)}.`
      : "";
  return `${first} ${progressSentence(stats)}${estimate} ${LIMITS_FIX}`;
}
