/** A push the push service could not take (429, 5xx, no answer) is tried again after this, doubling... */
const PUSH_RETRY_INITIAL_MS = 1000;
/** ...up to this; a `Retry-After` longer than the backoff wins. */
export const PUSH_RETRY_MAX_MS = 5 * 60_000;

/**
 * How long to wait before trying a push again after `failures` earlier failures in a row: exponential backoff,
 * but never sooner than the push service's `Retry-After` (seconds, or an HTTP date).
 */
export function pushRetryDelayMs(failures: number, retryAfter: string | null, now: number): number {
  const backoff = Math.min(PUSH_RETRY_MAX_MS, PUSH_RETRY_INITIAL_MS * 2 ** Math.min(failures, 30));
  return Math.max(backoff, retryAfterMs(retryAfter, now) ?? 0);
}

/** RFC 9110 §10.2.3: delay-seconds or an HTTP-date; null when absent or unreadable. */
export function retryAfterMs(value: string | null, now: number): number | null {
  if (value === null) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}
