import type { PermissionAnswer } from "@ringback/protocol";

/** An ask whose hook is still waiting: what a decision must match. */
export interface PendingAsk {
  readonly eventId: string;
  readonly toolInputDigest: string;
  /** The hook stops waiting then; a decision after it is refused. */
  readonly expiresAt: Date;
}

/** How an ask that no longer waits ended: answered by a decision, or not (expired, hook gone, call not raised). */
export type EndedAsk = "decided" | "stopped-waiting";

/** An ask being held: its answer for the hook, and a way to end it early (the call could not be raised). */
export interface HeldAsk {
  readonly answer: Promise<PermissionAnswer>;
  end(answer: PermissionAnswer): void;
}

type DecidedAnswer = Extract<PermissionAnswer, { outcome: "decided" }>;

/** Ended asks remembered, so a late decision is told why it was refused; older ones count as stopped waiting. */
const ENDED_ASKS_KEPT = 1000;

interface Entry {
  readonly ask: PendingAsk;
  settle(answer: PermissionAnswer, ended: EndedAsk): void;
}

/**
 * The asks whose hooks wait for a phone, in memory only: a hook's request does not outlive the daemon. Each ends
 * exactly once: at the first decision, when its wait runs out (`expired`), or when its hook disconnects.
 */
export class PendingAsks {
  readonly #pending = new Map<string, Entry>();
  readonly #ended = new Map<string, EndedAsk>();

  /** Holds `ask` until it is decided, `waitMs` passes, or `signal` aborts (the hook went away). */
  hold(ask: PendingAsk, options: { waitMs: number; signal?: AbortSignal }): HeldAsk {
    let settle: (answer: PermissionAnswer, ended: EndedAsk) => void = () => undefined;
    const answer = new Promise<PermissionAnswer>((resolve) => {
      const timer = setTimeout(() => settle({ outcome: "expired" }, "stopped-waiting"), options.waitMs);
      const onAbort = () => settle({ outcome: "expired" }, "stopped-waiting");
      options.signal?.addEventListener("abort", onAbort, { once: true });
      settle = (value, ended) => {
        if (this.#pending.get(ask.eventId)?.ask !== ask) return;
        clearTimeout(timer);
        options.signal?.removeEventListener("abort", onAbort);
        this.#pending.delete(ask.eventId);
        this.#remember(ask.eventId, ended);
        resolve(value);
      };
    });
    this.#pending.set(ask.eventId, { ask, settle: (value, ended) => settle(value, ended) });
    if (options.signal?.aborted) settle({ outcome: "expired" }, "stopped-waiting");
    return { answer, end: (value) => settle(value, "stopped-waiting") };
  }

  /** The ask while its hook waits. */
  get(eventId: string): PendingAsk | undefined {
    return this.#pending.get(eventId)?.ask;
  }

  /** How an ask that no longer waits ended; undefined for one this daemon never held (or long forgotten). */
  ended(eventId: string): EndedAsk | undefined {
    return this.#ended.get(eventId);
  }

  /** Answers the hook with a decision; false when the ask no longer waits (another decision won, or it ended). */
  decide(eventId: string, answer: DecidedAnswer): boolean {
    const entry = this.#pending.get(eventId);
    if (!entry) return false;
    entry.settle(answer, "decided");
    return true;
  }

  /** Ends every held ask with `answer` (the daemon stops: no hook is left waiting on a closing socket). */
  endAll(answer: PermissionAnswer): void {
    for (const entry of [...this.#pending.values()]) entry.settle(answer, "stopped-waiting");
  }

  #remember(eventId: string, ended: EndedAsk): void {
    this.#ended.set(eventId, ended);
    if (this.#ended.size > ENDED_ASKS_KEPT) {
      const oldest = this.#ended.keys().next().value;
      if (oldest !== undefined) this.#ended.delete(oldest);
    }
  }
}
