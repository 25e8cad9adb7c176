/**
 * The gathering window of finished calls: the first finish opens it, and every finish until it ends is held to its
 * end, so agents finishing close together make one call. A finish after it opens the next. Only the end is kept:
 * the held calls carry it (the outbox keeps each one's hold), and `resume` takes it back after a restart.
 */
export class GatheringWindow {
  readonly #now: () => number;
  #endsAtMs: number | null = null;

  constructor(now: () => number) {
    this.#now = now;
  }

  /** The end of the window a finish now joins (opening one of `gatherSeconds`); null for 0: sent at once. */
  holdFor(gatherSeconds: number): number | null {
    if (gatherSeconds <= 0) return null;
    const nowMs = this.#now();
    if (this.#endsAtMs === null || this.#endsAtMs <= nowMs) this.#endsAtMs = nowMs + gatherSeconds * 1000;
    return this.#endsAtMs;
  }

  /** After a restart: the window the calls still held were given, while it has not ended. */
  resume(heldUntilMs: readonly number[]): void {
    const latest = Math.max(...heldUntilMs, Number.NEGATIVE_INFINITY);
    if (latest > this.#now() && (this.#endsAtMs === null || latest > this.#endsAtMs)) this.#endsAtMs = latest;
  }
}
