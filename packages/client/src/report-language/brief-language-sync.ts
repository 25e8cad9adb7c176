import { BRIEF_LANGUAGE_RETRY_MS } from "@ringback/protocol";
import { isDaemonUnreachable } from "../daemon/daemon-error.js";
import { PLATFORM_TIMERS, type TimerHandle, type Timers } from "../runtime/timers.js";

export type BriefLanguageSyncState =
  | { readonly status: "idle" }
  | { readonly status: "sending"; readonly language: string }
  | { readonly status: "saved"; readonly language: string }
  /** The computer (or the relay) could not be reached: tried again every BRIEF_LANGUAGE_RETRY_MS. */
  | { readonly status: "waiting"; readonly language: string; readonly error: unknown }
  /** The daemon refused it (for example another key, or a language it does not take): not tried again. */
  | { readonly status: "rejected"; readonly language: string; readonly error: unknown };

/**
 * Keeps the daemon's brief language equal to the app's report language: `PUT /brief/language` at start and on
 * every change, one at a time and in order, again every 30 seconds while the daemon cannot be reached, never again
 * after a rejection.
 */
export class BriefLanguageSync {
  #state: BriefLanguageSyncState = { status: "idle" };
  #timer: TimerHandle | undefined;
  #turn = 0;
  /** The PUT under way: the next waits for it, so an older language can never land after a newer one. */
  #putting: Promise<void> = Promise.resolve();

  constructor(
    private readonly put: (language: string) => Promise<void>,
    private readonly onState: (state: BriefLanguageSyncState) => void = () => undefined,
    private readonly retryMs: number = BRIEF_LANGUAGE_RETRY_MS,
    private readonly timers: Timers = PLATFORM_TIMERS,
  ) {}

  get state(): BriefLanguageSyncState {
    return this.#state;
  }

  /** Sends a language now (at start, and on change), replacing any retry of an earlier one. */
  send(language: string): Promise<void> {
    this.timers.clearTimeout(this.#timer);
    this.#turn += 1;
    return this.#attempt(language, this.#turn);
  }

  stop(): void {
    this.timers.clearTimeout(this.#timer);
    this.#turn += 1;
  }

  async #attempt(language: string, turn: number): Promise<void> {
    this.#set({ status: "sending", language });
    // Relayed PUTs travel and run independently: sent while another is under way, they could run out of order.
    // One at a time, and one superseded while it waited is not sent at all.
    const put = this.#putting
      .catch(() => undefined)
      .then(() => (turn === this.#turn ? this.put(language) : undefined));
    this.#putting = put;
    try {
      await put;
      if (turn === this.#turn) this.#set({ status: "saved", language });
    } catch (error) {
      if (turn !== this.#turn) return;
      if (!isDaemonUnreachable(error)) {
        this.#set({ status: "rejected", language, error });
        return;
      }
      this.#set({ status: "waiting", language, error });
      this.#timer = this.timers.setTimeout(() => {
        this.#attempt(language, turn).catch(() => undefined);
      }, this.retryMs);
    }
  }

  #set(state: BriefLanguageSyncState): void {
    this.#state = state;
    this.onState(state);
  }
}
