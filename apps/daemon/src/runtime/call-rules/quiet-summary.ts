import { minuteOf } from "@ringback/protocol";
import { describeAnswer } from "../escalation/escalation-runtime.js";
import { isCallRinging, pushAgainRung } from "../escalation/push-again.js";
import type { Logger } from "../logger.js";
import type { QuietCalls } from "./quiet-calls.js";

/** The next moment after `nowMs` when the computer's clock shows `time` ("HH:MM", its local time; "24:00" is 0:00). */
export function nextLocalTimeMs(time: string, nowMs: number): number {
  const today = new Date(nowMs);
  const at = (dayOffset: number) =>
    new Date(today.getFullYear(), today.getMonth(), today.getDate() + dayOffset, 0, minuteOf(time)).getTime();
  const candidate = at(0);
  return candidate > nowMs ? candidate : at(1);
}

export interface QuietSummaryContext {
  quietCalls: QuietCalls;
  /** The daily time from the rules; null: no summary. Read each time the summary is armed. */
  summaryAt(): string | null;
  /** The relay this computer is linked to; null before `ringback login`. */
  relay(): { serverUrl: string; deviceToken: string } | null;
  log: Logger;
  now(): number;
}

/** What a summary did: rang the newest quiet call still waiting, found none waiting, or had no relay to ask. */
export type QuietSummaryOutcome =
  | { kind: "rang"; eventId: string; waiting: number }
  | { kind: "nothing-waiting" }
  | { kind: "no-relay" };

/**
 * The daily quiet summary: at the rules' time, the quiet calls this computer posted that the relay still holds
 * unanswered ring as one round-up: the relay pushes the newest of them again (`POST /v1/daemon/events/<id>/push`),
 * and the phone that rings reads every waiting call. Answered or forgotten calls leave the list; waiting ones stay
 * for the next day's summary.
 */
export class QuietSummary {
  readonly #context: QuietSummaryContext;
  #timer: ReturnType<typeof setTimeout> | null = null;
  readonly #stopping = new AbortController();

  constructor(context: QuietSummaryContext) {
    this.#context = context;
  }

  /** Sets the timer to the next summary time (again after a change of the rules); none when the rules set none. */
  arm(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const time = this.#context.summaryAt();
    if (time === null || this.#stopping.signal.aborted) return;
    const nowMs = this.#context.now();
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.ring().finally(() => this.arm());
    }, nextLocalTimeMs(time, nowMs) - nowMs);
  }

  /** Rings the waiting quiet calls now, as the timer does. */
  async ring(): Promise<QuietSummaryOutcome> {
    const { quietCalls, log } = this.#context;
    const relay = this.#context.relay();
    if (!relay) {
      log("quiet summary: no relay linked (ringback login); nothing rings");
      return { kind: "no-relay" };
    }
    const signal = this.#stopping.signal;
    const waiting: string[] = [];
    for (const eventId of quietCalls.newestFirst()) {
      if (signal.aborted) return { kind: "nothing-waiting" };
      if (await isCallRinging(eventId, relay, signal)) waiting.push(eventId);
      else quietCalls.forget(eventId);
    }
    const [newest] = waiting;
    if (newest === undefined) {
      log("quiet summary: no quiet call is waiting");
      return { kind: "nothing-waiting" };
    }
    const { answer } = await pushAgainRung(newest, relay).ring(signal);
    log(
      `quiet summary: ${waiting.length} quiet call(s) waiting; ${newest} pushed again: ${describeAnswer(answer)}`,
    );
    return { kind: "rang", eventId: newest, waiting: waiting.length };
  }

  stop(): void {
    this.#stopping.abort(new Error("the daemon is stopping"));
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }
}
