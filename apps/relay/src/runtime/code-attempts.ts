import { RingbackError } from "@ringback/protocol";
import type { RelayRuntime } from "./relay-runtime.js";

/** 429 `rate_limited` with the time until the window ends (the `Retry-After` header). */
export class RateLimitedError extends RingbackError {
  readonly retryAfterSeconds: number;

  constructor(retryAfterMs: number, message = "Too many wrong codes from this address; try again later.") {
    super("rate_limited", message);
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  }
}

function bucketKey(address: string): string {
  return `code-failures:${address}`;
}

/**
 * Wrong pairing and claim codes are counted per client address, in the store so every relay process sees them.
 * A wrong guess names no code, so there is no per-code counter to lock; and there is never one global lock-out
 * that an attacker could trigger for everyone.
 */
export async function assertCodeAttemptsLeft(runtime: RelayRuntime, address: string): Promise<void> {
  const now = runtime.clock.now();
  const state = await runtime.store.rateLimitState(bucketKey(address), now);
  if (state.count >= runtime.config.codeFailuresMax) throw new RateLimitedError(state.resetAt - now);
}

export async function recordFailedCodeAttempt(runtime: RelayRuntime, address: string): Promise<void> {
  const now = runtime.clock.now();
  await runtime.store.rateLimitHit(bucketKey(address), now, runtime.config.codeFailureWindowMs);
}

/**
 * With open signup, accounts created per client address and window: a flood of sign-ups from one place is refused
 * (429 with `Retry-After`) while everyone else can still sign up. Counted before the account is made.
 */
export async function assertSignupAllowed(runtime: RelayRuntime, address: string): Promise<void> {
  const now = runtime.clock.now();
  const key = `signups:${address}`;
  const state = await runtime.store.rateLimitState(key, now);
  if (state.count >= runtime.config.signupsPerAddressMax)
    throw new RateLimitedError(
      state.resetAt - now,
      "Too many new accounts from this address; try again later.",
    );
  await runtime.store.rateLimitHit(key, now, runtime.config.signupWindowMs);
}
