import { OUTBOX_SEND_RETRY_INITIAL_MS, OUTBOX_SEND_RETRY_MAX_MS } from "@ringback/protocol";

/**
 * The wait before the next attempt after `failedAttempts` failures (1, 2, 3, ...): 1 s doubling up to 5 min.
 * A server's Retry-After is honoured as a minimum, still capped at the maximum so a report is never parked
 * for longer than the spec allows.
 */
export function retryDelayMs(failedAttempts: number, retryAfterMs?: number): number {
  const exponent = Math.max(0, failedAttempts - 1);
  const backoff = Math.min(OUTBOX_SEND_RETRY_INITIAL_MS * 2 ** exponent, OUTBOX_SEND_RETRY_MAX_MS);
  return Math.min(Math.max(backoff, retryAfterMs ?? 0), OUTBOX_SEND_RETRY_MAX_MS);
}

/** Retry-After as seconds or an HTTP date, in milliseconds from `nowMs`; undefined when absent or invalid. */
export function parseRetryAfterMs(header: string | null, nowMs: number): number | undefined {
  if (header === null || header.trim() === "") return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}
