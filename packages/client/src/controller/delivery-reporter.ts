import type { DeviceDeliveryOutcome } from "@ringback/protocol";
import type { ReadableDelivery } from "../devices/device-list.js";
import { isRelayError } from "../relay/relay-error.js";
import { PLATFORM_TIMERS, type TimerHandle, type Timers } from "../runtime/timers.js";

/**
 * Delays between tries of delivery reports the relay could not take (offline, 5xx, 429); the last one repeats. Longer
 * than the status write's: nothing rings on another device because of a late delivery report.
 */
export const DELIVERY_REPORT_RETRY_DELAYS_MS = [5_000, 15_000, 60_000] as const;

export type DeliveryReportOutcome =
  | { readonly kind: "reported"; readonly delivery: ReadableDelivery }
  /** Refused for good: 404 (the relay no longer knows the call) or another 4xx that a retry cannot change. */
  | { readonly kind: "abandoned" }
  | { readonly kind: "device-removed" };

export interface PendingReport {
  readonly eventId: string;
  readonly outcome: DeviceDeliveryOutcome;
}

/**
 * Reports this device's delivery outcomes (shown, opened) to the relay, each once, in the background: a report the
 * relay could not take stays pending and is tried again with backoff and on every `flush` (the stream's reconnect).
 */
export class DeliveryReporter {
  readonly #pending = new Map<string, PendingReport>();
  #timer: TimerHandle | undefined;
  #failures = 0;
  #chain: Promise<void> = Promise.resolve();
  #isStopped = false;

  constructor(
    private readonly send: (eventId: string, outcome: DeviceDeliveryOutcome) => Promise<ReadableDelivery>,
    private readonly onOutcome: (
      eventId: string,
      outcome: DeviceDeliveryOutcome,
      result: DeliveryReportOutcome,
    ) => void,
    private readonly delaysMs: readonly number[] = DELIVERY_REPORT_RETRY_DELAYS_MS,
    private readonly timers: Timers = PLATFORM_TIMERS,
  ) {}

  /** Queues a report (one already queued for the same call and outcome is not repeated) and tries it now. */
  report(eventId: string, outcome: DeviceDeliveryOutcome): Promise<void> {
    return this.reportAll([{ eventId, outcome }]);
  }

  /** Queues several reports, then tries them all in one go. */
  reportAll(reports: readonly PendingReport[]): Promise<void> {
    if (this.#isStopped) return Promise.resolve();
    for (const report of reports) this.#pending.set(`${report.outcome} ${report.eventId}`, report);
    return this.flush();
  }

  /** Tries every pending report now. */
  flush(): Promise<void> {
    this.timers.clearTimeout(this.#timer);
    this.#chain = this.#chain.then(() => this.#sendAll());
    return this.#chain;
  }

  stop(): void {
    this.#isStopped = true;
    this.timers.clearTimeout(this.#timer);
    this.#pending.clear();
  }

  async #sendAll(): Promise<void> {
    for (const [key, { eventId, outcome }] of [...this.#pending]) {
      if (this.#isStopped) return;
      let result: DeliveryReportOutcome;
      try {
        result = { kind: "reported", delivery: await this.send(eventId, outcome) };
      } catch (error) {
        if (!isRelayError(error) || error.isRetryable) {
          this.#retryLater();
          return;
        }
        result = error.isDeviceRemoved ? { kind: "device-removed" } : { kind: "abandoned" };
      }
      this.#pending.delete(key);
      this.#failures = 0;
      this.onOutcome(eventId, outcome, result);
      if (result.kind === "device-removed") {
        this.stop();
        return;
      }
    }
  }

  #retryLater(): void {
    if (this.#isStopped) return;
    const delay = this.delaysMs[Math.min(this.#failures, this.delaysMs.length - 1)] ?? 0;
    this.#failures += 1;
    this.#timer = this.timers.setTimeout(() => {
      this.flush().catch(() => undefined);
    }, delay);
  }
}
