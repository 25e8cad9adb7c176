import type { LadderRungName, RungAnswer } from "@ringback/protocol";
import type { LadderRung, RungDelivery } from "./ladder-rung.js";

/** Pushover asks that a receipt be read no more often than every 5 s. */
export const RECEIPT_POLL_MS = 5_000;

/** How a ladder ended: the call answered (or no longer waiting), or the person acknowledged a channel. */
type LadderEnd = { kind: "stopped" } | { kind: "acknowledged"; rung: LadderRungName };

/** A rung as it happened: its answer, and when (ms after the call started ringing). */
export interface RungEvent {
  readonly rung: LadderRungName;
  readonly answer: RungAnswer;
  readonly atMs: number;
}

export interface RunningLadder {
  /** The call was answered anywhere, or stopped waiting: no rung more, and every sent one withdrawn. */
  stop(): Promise<void>;
  readonly ended: Promise<LadderEnd>;
}

interface LadderOptions {
  readonly rungs: readonly LadderRung[];
  /** When each rung falls due, ms after `startedAtMs` (`rungTimesMs`). */
  readonly timesMs: readonly number[];
  /** When the call started ringing (Date.now() then); the rungs count from it. */
  readonly startedAtMs: number;
  /** Asked before each rung: false once the call was answered on a phone (the relay knows before any decision). */
  isCallRinging?(signal: AbortSignal): Promise<boolean>;
  onRung(event: RungEvent): void;
  onWithdrawn(rung: LadderRungName, answer: RungAnswer): void;
}

/**
 * Climbs the ladder: each rung at its time, one after the other, until the person acknowledges a channel (a
 * receipt polled every `RECEIPT_POLL_MS`) or `stop()` says the call was answered. Stopping is at once: pending rungs
 * never fire, one in flight is aborted, and what was sent is withdrawn (receipts cancelled, a phone call hung up).
 */
export function startLadder(options: LadderOptions): RunningLadder {
  const abort = new AbortController();
  const delivered: { rung: LadderRungName; delivery: RungDelivery }[] = [];
  let rungTimer: ReturnType<typeof setTimeout> | undefined;
  let pollTimer: ReturnType<typeof setInterval> | undefined;
  let isPolling = false;
  let finish: (end: LadderEnd) => void = () => undefined;
  const ended = new Promise<LadderEnd>((resolve) => {
    finish = resolve;
  });

  const halt = (end: LadderEnd) => {
    if (abort.signal.aborted) return false;
    abort.abort();
    clearTimeout(rungTimer);
    clearInterval(pollTimer);
    finish(end);
    return true;
  };

  const ringAt = (index: number) => {
    const rung = options.rungs[index];
    const dueMs = options.timesMs[index];
    if (!rung || dueMs === undefined) return;
    const delayMs = Math.max(0, options.startedAtMs + dueMs - Date.now());
    rungTimer = setTimeout(() => void ring(index, rung), delayMs);
  };

  const ring = async (index: number, rung: LadderRung) => {
    if (options.isCallRinging && !(await options.isCallRinging(abort.signal))) {
      await stop();
      return;
    }
    if (abort.signal.aborted) return;
    const delivery = await rung.ring(abort.signal);
    options.onRung({ rung: rung.name, answer: delivery.answer, atMs: Date.now() - options.startedAtMs });
    const entry = { rung: rung.name, delivery };
    delivered.push(entry);
    // Answered while this rung was being sent: take it back with the others.
    if (abort.signal.aborted) {
      await withdraw([entry]);
      return;
    }
    if (delivery.isAcknowledged && !pollTimer) pollTimer = setInterval(() => void poll(), RECEIPT_POLL_MS);
    ringAt(index + 1);
  };

  const poll = async () => {
    if (isPolling) return;
    isPolling = true;
    try {
      for (const { rung, delivery } of delivered) {
        if (abort.signal.aborted) return;
        if (await delivery.isAcknowledged?.(abort.signal)) {
          halt({ kind: "acknowledged", rung });
          return;
        }
      }
    } finally {
      isPolling = false;
    }
  };

  const withdraw = async (entries: typeof delivered) => {
    await Promise.all(
      entries.map(async (entry) => {
        if (!entry.delivery.withdraw) return;
        options.onWithdrawn(entry.rung, await entry.delivery.withdraw());
      }),
    );
  };

  const stop = async () => {
    if (halt({ kind: "stopped" })) await withdraw(delivered);
  };
  ringAt(0);
  return { ended, stop };
}
