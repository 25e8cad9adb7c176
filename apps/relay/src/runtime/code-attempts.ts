import { ipv6Site } from "../http/client-address.js";
import type { RelayRuntime } from "./relay-runtime.js";
import { RetryLaterError } from "./retry-later.js";

/** 429 `rate_limited` with the time until the window ends (the `Retry-After` header). */
export class RateLimitedError extends RetryLaterError {
  constructor(retryAfterMs: number, message = "Too many wrong codes from this address; try again later.") {
    super("rate_limited", retryAfterMs, message);
  }
}

/** An IPv6 /48 may fail this many times what one address (/64) may: a few people, never 65,536 /64s' worth. */
const CODE_FAILURES_SITE_FACTOR = 3;
const DAY_MS = 24 * 60 * 60 * 1000;

interface FailureBucket {
  readonly key: string;
  readonly max: number;
  readonly windowMs: number;
}

/** Every counter a wrong code from `address` is held to: per address (IPv6: /64) and per IPv6 /48, per window and day. */
function failureBuckets(runtime: RelayRuntime, address: string): FailureBucket[] {
  const { codeFailuresMax, codeFailureWindowMs, codeFailuresDailyMax } = runtime.config;
  const buckets: FailureBucket[] = [
    { key: `code-failures:${address}`, max: codeFailuresMax, windowMs: codeFailureWindowMs },
    { key: `code-failures-day:${address}`, max: codeFailuresDailyMax, windowMs: DAY_MS },
  ];
  const site = ipv6Site(address);
  if (site !== null) {
    buckets.push(
      {
        key: `code-failures:${site}`,
        max: codeFailuresMax * CODE_FAILURES_SITE_FACTOR,
        windowMs: codeFailureWindowMs,
      },
      {
        key: `code-failures-day:${site}`,
        max: codeFailuresDailyMax * CODE_FAILURES_SITE_FACTOR,
        windowMs: DAY_MS,
      },
    );
  }
  return buckets;
}

/**
 * Wrong pairing and claim codes are counted per client address (an IPv6 client's /64, and its /48 with a larger
 * allowance), per 10 minutes and per day, in the store so every relay process sees them. A wrong guess changes
 * nothing else: it spends or burns nobody's code, and there is never one global lock-out that an attacker could
 * trigger for everyone.
 */
export async function assertCodeAttemptsLeft(runtime: RelayRuntime, address: string): Promise<void> {
  const now = runtime.clock.now();
  let retryAfterMs = 0;
  for (const bucket of failureBuckets(runtime, address)) {
    const state = await runtime.store.rateLimitState(bucket.key, now);
    if (state.count >= bucket.max) retryAfterMs = Math.max(retryAfterMs, state.resetAt - now);
  }
  if (retryAfterMs > 0) throw new RateLimitedError(retryAfterMs);
}

export async function recordFailedCodeAttempt(runtime: RelayRuntime, address: string): Promise<void> {
  const now = runtime.clock.now();
  for (const bucket of failureBuckets(runtime, address)) {
    await runtime.store.rateLimitHit(bucket.key, now, bucket.windowMs);
  }
}
