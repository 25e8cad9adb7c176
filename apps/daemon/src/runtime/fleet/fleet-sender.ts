import { FLEET_UPDATE_MIN_INTERVAL_MS } from "@ringback/protocol";
import type { Logger } from "../logger.js";
import type { FleetPutOutcome } from "./fleet-put.js";

/** The longest wait before a state the relay did not take is put again (the link's return resends it sooner). */
const FLEET_RETRY_MAX_MS = 5 * 60_000;

export interface FleetSenderOptions {
  /** Seals and puts the latest state. Never called twice at once. */
  send(): Promise<FleetPutOutcome>;
  log: Logger;
  /** FLEET_UPDATE_MIN_INTERVAL_MS unless a test or the bench says otherwise. */
  minIntervalMs?: number;
  now?: () => number;
}

/**
 * When the fleet state goes to the relay: the first change at once, then at most one put per minimum interval, the
 * changes in between sent together in the next; a put that did not go through is tried again with a growing wait
 * (or the relay's Retry-After), and at once when the link to the relay is back.
 */
export class FleetSender {
  readonly #options: FleetSenderOptions;
  readonly #minIntervalMs: number;
  readonly #now: () => number;
  #hasUnsent = false;
  #isSending = false;
  #isStopped = false;
  #lastPutAt = Number.NEGATIVE_INFINITY;
  #notBefore = Number.NEGATIVE_INFINITY;
  #retryMs = 0;
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** Puts made, for the bench and the tests. */
  puts = 0;

  constructor(options: FleetSenderOptions) {
    this.#options = options;
    this.#minIntervalMs = options.minIntervalMs ?? FLEET_UPDATE_MIN_INTERVAL_MS;
    this.#now = options.now ?? Date.now;
  }

  /** The state changed: it is put as soon as the interval allows. */
  changed(): void {
    this.#hasUnsent = true;
    this.#schedule();
  }

  /** The link to the relay (re)opened: the latest state is put again, without waiting out a retry. */
  linkOpened(): void {
    this.#notBefore = Number.NEGATIVE_INFINITY;
    this.#retryMs = 0;
    if (this.#timer) {
      clearTimeout(this.#timer);
      this.#timer = null;
    }
    this.changed();
  }

  /** Whether a change waits to be put (or is being put now). */
  get isPending(): boolean {
    return this.#hasUnsent || this.#isSending;
  }

  stop(): void {
    this.#isStopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #schedule(): void {
    if (this.#isStopped || this.#isSending || this.#timer || !this.#hasUnsent) return;
    const at = Math.max(this.#lastPutAt + this.#minIntervalMs, this.#notBefore);
    this.#timer = setTimeout(() => void this.#put(), Math.max(0, at - this.#now()));
    this.#timer.unref?.();
  }

  async #put(): Promise<void> {
    this.#timer = null;
    this.#hasUnsent = false;
    this.#isSending = true;
    this.#lastPutAt = this.#now();
    this.puts += 1;
    let outcome: FleetPutOutcome;
    try {
      outcome = await this.#options.send();
    } catch (error) {
      outcome = { kind: "retry", reason: error instanceof Error ? error.message : String(error) };
    } finally {
      this.#isSending = false;
    }
    this.#followUp(outcome);
    this.#schedule();
  }

  #followUp(outcome: FleetPutOutcome): void {
    switch (outcome.kind) {
      case "stored":
      case "not-linked":
        this.#retryMs = 0;
        return;
      case "refused":
        this.#retryMs = 0;
        this.#options.log(`fleet: the relay refused this computer's agent state (${outcome.reason})`);
        return;
      case "retry": {
        this.#retryMs = Math.min(FLEET_RETRY_MAX_MS, Math.max(this.#minIntervalMs, this.#retryMs * 2));
        const waitMs = outcome.retryAfterMs ?? this.#retryMs;
        this.#notBefore = this.#now() + waitMs;
        this.#hasUnsent = true;
        this.#options.log(
          `fleet: the agent state did not reach the relay (${outcome.reason}); trying again in ${Math.round(waitMs / 1000)} s`,
        );
        return;
      }
    }
  }
}
