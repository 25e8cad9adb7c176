import type { CallStatusResult, CallStatusWrite } from "@ringback/protocol";
import { isRelayError } from "../relay/relay-error.js";
import { PLATFORM_TIMERS, type TimerHandle, type Timers } from "../runtime/timers.js";

/** Delays between tries of a status write the relay could not take (offline, 5xx, 429); the last one repeats. */
export const STATUS_WRITE_RETRY_DELAYS_MS = [2_000, 5_000, 15_000, 30_000] as const;

export type StatusWriteOutcome =
  | { readonly kind: "written"; readonly result: CallStatusResult }
  /** 409 `call_already_answered`: another device's answer reached the relay first. */
  | { readonly kind: "answered-elsewhere" }
  /** The relay no longer knows the call (404: expired and pruned); nothing left to tell it. */
  | { readonly kind: "gone" }
  | { readonly kind: "device-removed" };

/**
 * Writes call statuses back to the relay in order, retrying what could not be delivered: a device that answers
 * while its connection drops must still tell the relay, or the other devices would keep ringing.
 */
export class StatusWriter {
  readonly #pending = new Map<string, CallStatusWrite>();
  #timer: TimerHandle | undefined;
  #failures = 0;
  #chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly write: (eventId: string, status: CallStatusWrite) => Promise<CallStatusResult>,
    private readonly onOutcome: (
      eventId: string,
      status: CallStatusWrite,
      outcome: StatusWriteOutcome,
    ) => void,
    private readonly delaysMs: readonly number[] = STATUS_WRITE_RETRY_DELAYS_MS,
    private readonly timers: Timers = PLATFORM_TIMERS,
  ) {}

  /** Queues a write; a later write for the same call replaces one not yet delivered. */
  enqueue(eventId: string, status: CallStatusWrite): Promise<void> {
    this.#pending.set(eventId, status);
    return this.flush();
  }

  /** Tries every pending write now (also called when the stream reconnects). */
  flush(): Promise<void> {
    this.timers.clearTimeout(this.#timer);
    this.#chain = this.#chain.then(() => this.#writeAll());
    return this.#chain;
  }

  stop(): void {
    this.timers.clearTimeout(this.#timer);
    this.#pending.clear();
  }

  async #writeAll(): Promise<void> {
    for (const [eventId, status] of [...this.#pending]) {
      let outcome: StatusWriteOutcome;
      try {
        outcome = { kind: "written", result: await this.write(eventId, status) };
      } catch (error) {
        if (!isRelayError(error)) throw error;
        if (error.isRetryable) {
          this.#retryLater();
          return;
        }
        if (error.isDeviceRemoved) outcome = { kind: "device-removed" };
        else if (error.code === "call_already_answered") outcome = { kind: "answered-elsewhere" };
        else outcome = { kind: "gone" };
      }
      if (this.#pending.get(eventId) === status) this.#pending.delete(eventId);
      this.#failures = 0;
      this.onOutcome(eventId, status, outcome);
      if (outcome.kind === "device-removed") {
        this.stop();
        return;
      }
    }
  }

  #retryLater(): void {
    const delay = this.delaysMs[Math.min(this.#failures, this.delaysMs.length - 1)] ?? 0;
    this.#failures += 1;
    this.#timer = this.timers.setTimeout(() => {
      this.flush().catch(() => undefined);
    }, delay);
  }
}
