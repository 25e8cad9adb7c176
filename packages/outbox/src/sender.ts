import type { OutboxEntry } from "./entry.js";

/** How a send ended, as the outbox needs to know it. */
export type SendOutcome =
  /** The relay has it. */
  | { kind: "sent" }
  /** `409 duplicate_task`: another computer already reported this tracker task; done. */
  | { kind: "duplicate" }
  /** Network error, 5xx or 429: try again later (`retryAfterMs` from the relay's Retry-After). */
  | { kind: "retry"; reason: string; retryAfterMs?: number }
  /** Any other 4xx: give up on this report and log why. */
  | { kind: "drop"; reason: string };

/** Posts one generated entry; `signal` aborts when the outbox stops. A throw counts as a network error. */
export type SendFunction = (entry: Readonly<OutboxEntry>, signal: AbortSignal) => Promise<SendOutcome>;

/** Sends in flight at once: enough to hide one slow request, few enough not to flood a relay coming back. */
export const SEND_CONCURRENCY = 4;

export interface SenderOptions {
  send: SendFunction;
  getEntry(eventId: string): Readonly<OutboxEntry> | undefined;
  /** Records the outcome; returns when to try again (epoch ms), or null when the entry is done. */
  recordOutcome(eventId: string, outcome: SendOutcome): Promise<number | null>;
  now(): number;
  concurrency?: number;
}

/**
 * Sends entries when their next attempt time has come, oldest first, a few at once. The retry policy
 * (backoff, persistence) belongs to `recordOutcome`; this only keeps time and order.
 */
export class Sender {
  readonly #options: SenderOptions;
  readonly #due: string[] = [];
  readonly #isDue = new Set<string>();
  readonly #waiting = new Map<string, ReturnType<typeof setTimeout>>();
  readonly #inFlight = new Map<string, { controller: AbortController; settled: Promise<void> }>();
  #isStopped = false;

  constructor(options: SenderOptions) {
    this.#options = options;
  }

  /** Sends the entry once `notBeforeMs` has come (at once when it has), behind entries already due. */
  schedule(eventId: string, notBeforeMs: number): void {
    if (
      this.#isStopped ||
      this.#inFlight.has(eventId) ||
      this.#waiting.has(eventId) ||
      this.#isDue.has(eventId)
    ) {
      return;
    }
    const waitMs = notBeforeMs - this.#options.now();
    if (waitMs <= 0) {
      this.#markDue(eventId);
      return;
    }
    const timer = setTimeout(() => {
      this.#waiting.delete(eventId);
      this.#markDue(eventId);
    }, waitMs);
    this.#waiting.set(eventId, timer);
  }

  /** Cancels the timers and aborts the sends in flight; their entries keep what is on disk. */
  async stop(): Promise<void> {
    this.#isStopped = true;
    for (const timer of this.#waiting.values()) clearTimeout(timer);
    this.#waiting.clear();
    this.#due.length = 0;
    this.#isDue.clear();
    const inFlight = [...this.#inFlight.values()];
    for (const { controller } of inFlight) controller.abort(new Error("the outbox is stopping"));
    await Promise.all(inFlight.map(({ settled }) => settled));
  }

  #markDue(eventId: string): void {
    this.#due.push(eventId);
    this.#isDue.add(eventId);
    this.#sendNext();
  }

  #sendNext(): void {
    const limit = this.#options.concurrency ?? SEND_CONCURRENCY;
    while (!this.#isStopped && this.#inFlight.size < limit && this.#due.length > 0) {
      const eventId = this.#due.shift() as string;
      this.#isDue.delete(eventId);
      const controller = new AbortController();
      const settled = this.#attempt(eventId, controller.signal)
        .catch(() => null)
        .then((nextAttemptMs) => {
          this.#inFlight.delete(eventId);
          if (nextAttemptMs !== null) this.schedule(eventId, nextAttemptMs);
          this.#sendNext();
        });
      this.#inFlight.set(eventId, { controller, settled });
    }
  }

  async #attempt(eventId: string, signal: AbortSignal): Promise<number | null> {
    const entry = this.#options.getEntry(eventId);
    if (!entry) return null;
    let outcome: SendOutcome;
    try {
      outcome = await this.#options.send(entry, signal);
    } catch (error) {
      outcome = { kind: "retry", reason: describeFailure(error) };
    }
    // Stopping: the entry keeps its persisted attempt count and is sent again at the next start.
    if (signal.aborted) return null;
    return this.#options.recordOutcome(eventId, outcome);
  }
}

/** A short reason for a log line: the error's message and its cause's, never a request body. */
export function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
  return `${error.message}${cause}`;
}
