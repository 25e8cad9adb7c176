import { RingbackError } from "@ringback/protocol";
import type { RequestSender } from "../../../http/relayed.js";

/**
 * Connection tests one device may run in a minute (a caller on this computer counts as one device, "local"): enough
 * to try a few addresses and keys in a row, far too few to map a network's open ports with the test.
 */
export const LLM_TESTS_PER_MINUTE_MAX = 6;
/**
 * The same for the callers on this computer together ("local": `ringback model test`, `ringback doctor` run a few times
 * in a row). A local process can connect anywhere itself, so this only stops a runaway script.
 */
export const LOCAL_LLM_TESTS_PER_MINUTE_MAX = 30;
const LOCAL_TESTER = "local";
const MINUTE_MS = 60_000;

/** Whom a test counts against: the device the relay stamped, "local" on this computer, one count for unstamped. */
export function testerOf(sender: RequestSender): string {
  if (sender.kind === "local") return LOCAL_TESTER;
  return sender.deviceId ?? "a device through an older relay";
}

/** The connection tests each device started in the last minute. */
export class TestsPerMinute {
  readonly #startedAt = new Map<string, number[]>();
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /**
   * Counts a test for `device`, or throws 429 `rate_limited` with the seconds until one is free (`retryAfterSeconds`,
   * the Retry-After header) when it has run its limit in the last minute.
   */
  take(device: string): void {
    const now = this.#now();
    const limit = device === LOCAL_TESTER ? LOCAL_LLM_TESTS_PER_MINUTE_MAX : LLM_TESTS_PER_MINUTE_MAX;
    const recent = (this.#startedAt.get(device) ?? []).filter((at) => now - at < MINUTE_MS);
    const oldest = recent[0];
    if (recent.length >= limit && oldest !== undefined) {
      this.#startedAt.set(device, recent);
      const retryAfterSeconds = Math.max(1, Math.ceil((oldest + MINUTE_MS - now) / 1000));
      throw new TestLimitError(retryAfterSeconds, limit);
    }
    this.#startedAt.set(device, [...recent, now]);
  }
}

/** 429 `rate_limited`, with when to try again (the answer's Retry-After, and its words for a device). */
export class TestLimitError extends RingbackError {
  readonly retryAfterSeconds: number;

  constructor(retryAfterSeconds: number, limit: number) {
    super(
      "rate_limited",
      `At most ${limit} model tests a minute from one device: try again in ${retryAfterSeconds} s.`,
    );
    this.retryAfterSeconds = retryAfterSeconds;
  }
}
