// node:timers/promises is not what vi.useFakeTimers() replaces: the checks keep their pace under a fake clock.
import { setTimeout as tick } from "node:timers/promises";

/**
 * "Something changed, look again": whatever a test waits on (a child's output, a stream's events, a recording
 * server) calls `notify()`, and every `eventually` waiting `on` it checks at once instead of at its next tick.
 */
export class Changes {
  #wake: () => void = () => undefined;
  #next = this.#renew();

  notify(): void {
    this.#wake();
    this.#next = this.#renew();
  }

  /** Resolves at the next `notify()`. */
  next(): Promise<void> {
    return this.#next;
  }

  #renew(): Promise<void> {
    return new Promise((resolve) => {
      this.#wake = resolve;
    });
  }
}

export interface EventuallyOptions {
  /** Named in the failure: "the relay to listen". */
  readonly what?: string;
  /** How many ticks the condition may take (default 500: 10 s at the default interval). */
  readonly checks?: number;
  /** Milliseconds between ticks (default 20; each tick is one check). */
  readonly intervalMs?: number;
  /** Also checks at every change it notifies, at no cost to `checks`. */
  readonly on?: Changes;
}

/** What `check` returns while the condition does not hold yet. */
type NotYet = false | null | undefined;

const DEFAULT_CHECKS = 500;
const DEFAULT_INTERVAL_MS = 20;

/**
 * Resolves with the first result of `check` that is not `false`, `null` or `undefined` (`true` for a predicate).
 * `check` runs at once, then at every tick and every change `on` notifies; it fails after `checks` ticks, naming
 * `what`. The bound is a count of checks, never a reading of the clock: a fake clock does not stall it and a busy
 * machine only makes it more patient.
 */
export async function eventually<T>(
  check: () => T | Promise<T>,
  options: EventuallyOptions = {},
): Promise<Exclude<T, NotYet>> {
  const checks = options.checks ?? DEFAULT_CHECKS;
  const intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
  let ticks = 0;
  let nextTick = tick(intervalMs, "tick" as const);
  for (;;) {
    // Taken before the check: a change while an async check runs wakes the next one.
    const changed = options.on?.next();
    const value = await check();
    if (value !== false && value !== null && value !== undefined) return value as Exclude<T, NotYet>;
    if (ticks >= checks)
      throw new Error(`${options.what ?? "the condition"} did not hold after ${checks} checks`);
    const woke = await (changed ? Promise.race([nextTick, changed]) : nextTick);
    if (woke === "tick") {
      ticks += 1;
      nextTick = tick(intervalMs, "tick" as const);
    }
  }
}
