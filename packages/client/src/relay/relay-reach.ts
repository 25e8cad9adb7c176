import type { Clock, TimerHandle, Timers } from "../runtime/timers.js";
import type { StreamConnection } from "./call-stream.js";

/**
 * How long a relay this device has reached may stay out of reach before the app says so. A relay restart or a
 * phone moving between networks takes a few seconds and is said by the connection line alone; 20 s of failed
 * attempts (several of the stream's reconnects) is a relay that stopped, or that serves another address now.
 */
export const RELAY_UNREACHABLE_AFTER_MS = 20_000;

export interface RelayReachOptions {
  readonly clock: Clock;
  readonly timers: Timers;
  /** The relay is out of reach since this time (the first failed attempt), or reached again (null). */
  readonly onChange: (unreachableSince: number | null) => void;
  readonly unreachableAfterMs?: number;
}

/**
 * Whether this device's relay counts as out of reach, from the stream's connection states. Said at once when the
 * relay has not been reached since the app opened (a page opened after the relay moved has nothing to wait for),
 * after `RELAY_UNREACHABLE_AFTER_MS` of failed attempts once it has; unsaid as soon as the stream opens again.
 */
export class RelayReach {
  readonly #options: RelayReachOptions;
  readonly #afterMs: number;
  #hasReached = false;
  #failingSince: number | null = null;
  #isSaid = false;
  #timer: TimerHandle | undefined;

  constructor(options: RelayReachOptions) {
    this.#options = options;
    this.#afterMs = options.unreachableAfterMs ?? RELAY_UNREACHABLE_AFTER_MS;
  }

  /** The stream's state changed: "open" is the relay reached, "offline" an attempt that failed. */
  connection(state: StreamConnection): void {
    if (state === "open") {
      this.#reached();
      return;
    }
    // "connecting" is a new attempt: the failures go on until it opens.
    if (state !== "offline") return;
    const now = this.#options.clock.now();
    this.#failingSince ??= now;
    if (this.#isSaid || this.#timer !== undefined) return;
    if (!this.#hasReached) {
      this.#say();
      return;
    }
    this.#timer = this.#options.timers.setTimeout(
      () => {
        this.#timer = undefined;
        if (this.#failingSince !== null) this.#say();
      },
      Math.max(0, this.#failingSince + this.#afterMs - now),
    );
  }

  stop(): void {
    this.#options.timers.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #reached(): void {
    this.#hasReached = true;
    this.#failingSince = null;
    this.stop();
    if (!this.#isSaid) return;
    this.#isSaid = false;
    this.#options.onChange(null);
  }

  #say(): void {
    if (this.#failingSince === null) return;
    this.#isSaid = true;
    this.#options.onChange(this.#failingSince);
  }
}
