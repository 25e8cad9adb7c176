import type { ModelCallLimits } from "@ringback/protocol";

/** Settles with `work`, or rejects with the signal's reason as soon as it aborts (even if `work` ignores it). */
export async function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

/**
 * The two limits of one call, on the global timers (so tests drive them with fake timers). The overall cap runs
 * from sending the request; the no-progress limit from the first token, restarted by every token: reading the
 * prompt streams nothing, and its time grows with the report.
 */
export class CallLimits {
  readonly controller = new AbortController();
  expired: "overall" | "no_progress" | null = null;
  #overall: ReturnType<typeof setTimeout>;
  #noProgress: ReturnType<typeof setTimeout> | undefined;

  constructor(readonly limits: ModelCallLimits) {
    this.#overall = setTimeout(() => this.#expire("overall"), limits.timeoutMs);
  }

  tokenArrived(): void {
    clearTimeout(this.#noProgress);
    this.#noProgress = setTimeout(() => this.#expire("no_progress"), this.limits.noProgressTimeoutMs);
  }

  clear(): void {
    clearTimeout(this.#overall);
    clearTimeout(this.#noProgress);
  }

  #expire(limit: "overall" | "no_progress"): void {
    this.expired ??= limit;
    this.clear();
    this.controller.abort(new Error(`the ${limit} limit expired`));
  }
}
