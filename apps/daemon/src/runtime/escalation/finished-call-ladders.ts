import type { SendFunction } from "@ringback/outbox";
import type { Logger } from "../logger.js";
import type { RunningLadder } from "./ladder-runner.js";
import type { CallKind } from "./ladder-schedule.js";

/** How often a finished call's ladder asks the relay whether the call still rings: as often as a Pushover receipt. */
const FINISHED_CALL_WATCH_MS = 5_000;

/**
 * The longest a finished call's ladder runs past its last rung: Pushover's repeats stop by themselves then, and a
 * call nobody answered in that time is not worth the relay's questions until it expires (a day).
 */
const FINISHED_CALL_WATCH_AFTER_LAST_RUNG_MS = 15 * 60_000;

interface FinishedCallLaddersOptions {
  readonly escalation: {
    lastRungAtMs(kind: CallKind): number | null;
    start(kind: CallKind, eventId: string, startedAt: Date): RunningLadder | null;
  };
  /** The person counts as away now (the switch, the ring modes, input idle time), as for a needs-you call. */
  isAway(): Promise<boolean>;
  /** False once the call was answered, acknowledged, rejected or ended on any device (or expired at the relay). */
  isCallRinging(eventId: string, signal: AbortSignal): Promise<boolean>;
  log: Logger;
  now(): Date;
  watchEveryMs?: number;
}

/**
 * The ladders of "finished" calls: one starts when such a call reached the relay, its kind's schedule escalates, and
 * the person is away; it stops once the call ends anywhere. Unlike a needs-you call, no hook waits for a decision, so
 * the relay is asked every `FINISHED_CALL_WATCH_MS` (and before each rung, as for every ladder).
 */
export class FinishedCallLadders {
  readonly #options: FinishedCallLaddersOptions;
  readonly #running = new Map<string, RunningLadder>();

  constructor(options: FinishedCallLaddersOptions) {
    this.#options = options;
  }

  /** The outbox's sender, with a ladder for each finished call it posts (not awaited: the outbox goes on). */
  escalatingAfter(send: SendFunction): SendFunction {
    return async (entry, signal) => {
      const outcome = await send(entry, signal);
      if (outcome.kind === "sent") void this.afterPosted(entry.report.eventId);
      return outcome;
    };
  }

  /** The finished call `eventId` was posted and rings now. */
  async afterPosted(eventId: string): Promise<void> {
    const { escalation, log } = this.#options;
    const lastRungAtMs = escalation.lastRungAtMs("finished");
    // The default: finished calls never escalate, and nothing reads presence or idle time for them.
    if (lastRungAtMs === null || this.#running.has(eventId)) return;
    const startedAt = this.#options.now();
    if (!(await this.#options.isAway().catch(() => false))) return;
    const ladder = escalation.start("finished", eventId, startedAt);
    if (!ladder) return;
    log(`${eventId}: the finished call escalates while it rings (the person is away)`);
    this.#running.set(eventId, ladder);
    const watch = new AbortController();
    const ticks = setInterval(() => {
      this.#options.isCallRinging(eventId, watch.signal).then(
        (isRinging) => {
          if (!isRinging) void ladder.stop();
        },
        () => undefined,
      );
    }, this.#options.watchEveryMs ?? FINISHED_CALL_WATCH_MS);
    const giveUp = setTimeout(() => {
      log(`${eventId}: nobody answered the finished call; its ladder stops`);
      void ladder.stop();
    }, lastRungAtMs + FINISHED_CALL_WATCH_AFTER_LAST_RUNG_MS);
    void ladder.ended.then(() => {
      watch.abort();
      clearInterval(ticks);
      clearTimeout(giveUp);
      this.#running.delete(eventId);
    });
  }

  /** The daemon stops: every ladder stops climbing and takes back what still rings. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.#running.values()].map((ladder) => ladder.stop()));
  }
}
