import { addressBlock } from "../http/client-address.js";
import { RateLimitedError } from "./code-attempts.js";
import type { RelayRuntime } from "./relay-runtime.js";

const DAY_MS = 24 * 60 * 60 * 1000;

/** One counter a new account is held to. */
interface SignupBucket {
  readonly key: string;
  readonly max: number;
  readonly windowMs: number;
  /** What the refusal says was too busy. */
  readonly source: "address" | "network";
}

/** A day allows this many windows' worth of sign-ups from one address (or block), not 24. */
export const SIGNUPS_DAILY_FACTOR = 2;
/** An address block (IPv4 /24, IPv6 /48) allows this many addresses' worth: a few neighbours, not a whole subnet. */
export const SIGNUPS_BLOCK_FACTOR = 3;

/**
 * Every counter a sign-up from `address` (its bucket: an IPv4 address, an IPv6 /64) counts against: the address and
 * its block, each per window and per day.
 */
function signupBuckets(runtime: RelayRuntime, address: string): SignupBucket[] {
  const { signupsPerAddressMax: max, signupWindowMs: windowMs } = runtime.config;
  const daily = max * SIGNUPS_DAILY_FACTOR;
  const buckets: SignupBucket[] = [
    { key: `signups:${address}`, max, windowMs, source: "address" },
    { key: `signups-day:${address}`, max: daily, windowMs: DAY_MS, source: "address" },
  ];
  const block = addressBlock(address);
  if (block !== address) {
    const perBlock = { max: max * SIGNUPS_BLOCK_FACTOR, daily: daily * SIGNUPS_BLOCK_FACTOR };
    buckets.push(
      { key: `signups:${block}`, max: perBlock.max, windowMs, source: "network" },
      { key: `signups-day:${block}`, max: perBlock.daily, windowMs: DAY_MS, source: "network" },
    );
  }
  return buckets;
}

/**
 * With open signup, accounts created per client address and per address block, per window and per day, in the store
 * so every relay process sees them: a flood of sign-ups from one place, or from one network's many addresses, is
 * refused (429 `rate_limited` with `Retry-After` until the fullest counter's window ends) while everyone else can
 * still sign up. Counted before the account is made.
 */
export async function assertSignupAllowed(runtime: RelayRuntime, address: string): Promise<void> {
  const now = runtime.clock.now();
  const buckets = signupBuckets(runtime, address);
  let retryAfterMs = 0;
  let source: SignupBucket["source"] = "address";
  for (const bucket of buckets) {
    const state = await runtime.store.rateLimitState(bucket.key, now);
    if (state.count < bucket.max || state.resetAt - now <= retryAfterMs) continue;
    retryAfterMs = state.resetAt - now;
    source = bucket.source;
  }
  if (retryAfterMs > 0) {
    throw new RateLimitedError(retryAfterMs, `Too many new accounts from this ${source}; try again later.`);
  }
  for (const bucket of buckets) await runtime.store.rateLimitHit(bucket.key, now, bucket.windowMs);
}
