import {
  activeCall,
  type CallCenter,
  type CallCenterView,
  type CallRecord,
  callerName,
  DecisionError,
  isNeedsYou,
  ringingCall,
  trackerQuestionOf,
} from "@ringback/client";
import { CORE_TEXTS } from "@ringback/client/texts";
import { needsYouStatus, replyDeliveryText, replyLines } from "@ringback/client/views";
import type { PermissionVerdict } from "@ringback/protocol";
import type { DesktopNotifier } from "./desktop-notifier.js";
import { needsYouBehind, queueText, waitingCalls } from "./ring-queue.js";
import { askInCallText, askRingingText, askStatusLine } from "./terminal-ask.js";
import { inCallText, ringingText, scriptOf, stoppedText } from "./terminal-call.js";
import { questionInCallText, questionRingingText } from "./terminal-question.js";

/** Why a decision could not be sent, in the terminal's words. */
const DECISION_PROBLEMS: Record<DecisionError["problem"], string> = {
  "not-needs-you": "This call does not ask for a decision.",
  "not-in-call": "This call is no longer in progress here (answered on another device?).",
  "stopped-waiting": "The agent stopped waiting.",
  "already-decided": "You already decided.",
  "no-computer": "This terminal does not know which computer asked.",
};

export interface ListenSessionOptions {
  readonly center: CallCenter;
  readonly write: (text: string) => void;
  readonly notifier: DesktopNotifier | null;
  readonly quit: () => void;
  /** `s` / `status`: the account's agents now (the fleet list). */
  readonly onStatus?: () => void;
}

/**
 * The terminal companion's screen: follows the call center's view (rings, shows the brief, says why a call stopped
 * ringing) and turns typed commands into answers, rejections, acknowledgements, hang-ups, replies, and the decisions
 * of "needs you" calls (`allow`, `deny [reason]`). A tracker agent's question rings as "needs you" too, and takes a
 * reply (posted as a comment on the issue), not a decision.
 */
export class ListenSession {
  readonly #center: CallCenter;
  readonly #write: (text: string) => void;
  readonly #notifier: DesktopNotifier | null;
  readonly #quit: () => void;
  readonly #onStatus: (() => void) | undefined;
  #ringingId: string | null = null;
  #activeId: string | null = null;
  /** The last call answered here: `reply` goes to its agent after hang-up too. */
  #lastAnsweredId: string | null = null;
  #connection: CallCenterView["connection"] | null = null;
  readonly #unreadable = new Set<string>();
  /** The last status line printed for each decision sent here. */
  readonly #decisionLines = new Map<string, string>();
  /** The calls this terminal replied to, and the last delivery printed for each of their replies (id -> words). */
  readonly #repliedCalls = new Set<string>();
  readonly #replyLines = new Map<string, string>();
  /** The calls set aside here so that a call that needs you rings first: they wait in the queue. */
  readonly #setAside = new Set<string>();
  /** The queue line last printed ("" before any). */
  #queueLine = "";
  /** The fleet's list, when it changed during a call: shown once no call rings or is in progress. */
  #fleetWaiting: string[] | null = null;

  constructor(options: ListenSessionOptions) {
    this.#center = options.center;
    this.#write = options.write;
    this.#notifier = options.notifier;
    this.#quit = options.quit;
    this.#onStatus = options.onStatus;
    this.#center.subscribe((view) => this.#follow(view));
  }

  /**
   * The account's agents (working, needs you, finished), shown at once when no call rings or is in progress, else
   * when the call is over: a list printed in the middle of a call would bury the call's words.
   */
  showFleet(lines: string[]): void {
    if (this.#isIdle()) {
      this.#fleetWaiting = null;
      this.#write(`${lines.join("\n")}\n`);
    } else this.#fleetWaiting = lines;
  }

  #isIdle(): boolean {
    return this.#ringingId === null && this.#activeId === null;
  }

  /** One typed line. */
  async command(line: string): Promise<void> {
    const [word = "", ...rest] = line.trim().split(/\s+/);
    const calls = this.#center.view.calls;
    const ringing = ringingCall(calls);
    switch (word.toLowerCase()) {
      case "":
        return;
      case "a":
      case "answer": {
        // With nothing ringing, the first call set aside for one that needed you.
        const next =
          ringing ?? waitingCalls(calls, this.#setAside).find((record) => record.status.state === "missed");
        if (!next) return this.#write("No call is ringing.\n");
        this.#center.answer(next.eventId);
        return;
      }
      case "r":
      case "reject":
        if (!ringing) return this.#write("No call is ringing.\n");
        this.#center.reject(ringing.eventId);
        return;
      case "k":
      case "ack":
      case "acknowledge": {
        if (ringing) {
          this.#center.setAside(ringing.eventId);
          this.#center.acknowledgeAll([ringing.eventId]);
          return;
        }
        const missed = Object.values(calls.records).filter((record) => record.status.state === "missed");
        if (missed.length === 0) return this.#write("No missed calls.\n");
        this.#center.acknowledgeAll(missed.map((record) => record.eventId));
        this.#write(`Acknowledged ${missed.length} missed call${missed.length === 1 ? "" : "s"}.\n`);
        return;
      }
      case "h":
      case "hang-up":
      case "hangup": {
        const active = activeCall(calls);
        if (!active) return this.#write("No call is in progress.\n");
        this.#center.hangUp(active.eventId);
        return;
      }
      case "reply":
        return this.#reply(rest.join(" "));
      case "allow":
        return this.#decide("allow", null);
      case "deny":
        return this.#decide("deny", rest.join(" ").trim() || null);
      case "s":
      case "status":
        return this.#onStatus?.();
      case "q":
      case "quit":
        this.#quit();
        return;
      default:
        this.#write(
          `Unknown command "${word}": a answer, r reject, k acknowledge, h hang up, reply <text>, s status, q quit.\n`,
        );
    }
  }

  async #reply(text: string): Promise<void> {
    const eventId = this.#activeId ?? this.#lastAnsweredId;
    if (!eventId)
      return this.#write("Answer a call first: a reply goes to the agent of the call answered here.\n");
    if (!text.trim()) return this.#write("reply <text>: the text to send to the agent.\n");
    try {
      await this.#center.sendReply(eventId, text.trim());
      this.#repliedCalls.add(eventId);
      this.#write("Reply sent to the agent's computer.\n");
      this.#followReplies(this.#center.view);
    } catch (error) {
      this.#write(`The reply could not be sent: ${error instanceof Error ? error.message : String(error)}\n`);
    }
  }

  /**
   * Allow once or Deny the "needs you" call in progress here, or the one ringing (answered first, so the other
   * devices stop ringing); whether the agent got it is printed when the computer says.
   */
  async #decide(verdict: PermissionVerdict, reason: string | null): Promise<void> {
    const calls = this.#center.view.calls;
    const active = activeCall(calls);
    const ringing = ringingCall(calls);
    const target =
      active && isNeedsYou(active) ? active : !active && ringing && isNeedsYou(ringing) ? ringing : null;
    // A tracker agent's question is "needs you" too, but it takes a reply, not a decision.
    const current = active ?? ringing;
    if (!target && current && trackerQuestionOf(current))
      return this.#write(`${DECISION_PROBLEMS["not-needs-you"]}\n`);
    if (!target)
      return this.#write("No call needs you: allow and deny answer a call that asks permission.\n");
    if (target.status.state === "ringing") this.#center.answer(target.eventId);
    try {
      await this.#center.decide(target.eventId, verdict, reason);
    } catch (error) {
      this.#write(
        error instanceof DecisionError
          ? `${DECISION_PROBLEMS[error.problem]}\n`
          : `The decision could not be sent: ${error instanceof Error ? error.message : String(error)}\n`,
      );
    }
  }

  #follow(view: CallCenterView): void {
    if (view.connection !== this.#connection) {
      if (view.connection === "open") this.#write("Listening for calls.\n");
      else if (view.connection === "offline" && this.#connection !== null)
        this.#write("The relay cannot be reached; reconnecting.\n");
      this.#connection = view.connection;
    }
    for (const { eventId, problem } of view.unreadable) {
      if (this.#unreadable.has(eventId)) continue;
      this.#unreadable.add(eventId);
      this.#write(`A call could not be opened (${problem}): is this terminal's key the computer's?\n`);
    }
    if (this.#putNeedsYouFirst(view)) return;
    this.#followRinging(view);
    this.#followActive(view);
    this.#followQueue(view);
    this.#followDecisions(view);
    this.#followReplies(view);
    if (this.#fleetWaiting && this.#isIdle()) this.showFleet(this.#fleetWaiting);
  }

  /** How each reply sent from this terminal ended (delivered, or failed and why), once the computer says. */
  #followReplies(view: CallCenterView): void {
    for (const eventId of this.#repliedCalls) {
      const record = view.calls.records[eventId];
      if (!record) continue;
      for (const { reply, status } of replyLines(record)) {
        if (status.kind === "queued") continue;
        const words = replyDeliveryText(status, CORE_TEXTS.en);
        if (this.#replyLines.get(reply.replyId) === words) continue;
        this.#replyLines.set(reply.replyId, words);
        this.#write(`Reply "${clipped(reply.text)}": ${words}\n`);
      }
    }
  }

  /**
   * Each decision sent here (sending, then whether the agent got it or why the computer refused it), and each that a
   * call ringing here was answered with on another device (answered, then decided once the agent got it).
   */
  #followDecisions(view: CallCenterView): void {
    for (const record of Object.values(view.calls.records)) {
      if (!record.verdict && !this.#decisionLines.has(record.eventId)) continue;
      const line = askStatusLine(needsYouStatus(record, this.#center.deviceId, new Date()));
      if (line === null || this.#decisionLines.get(record.eventId) === line) continue;
      this.#decisionLines.set(record.eventId, line);
      this.#write(`${line}\n`);
    }
  }

  /** Why a call that rang here stopped; for a "needs you" call, who decided it when the relay says. */
  #stoppedText(record: CallRecord): string {
    if (isNeedsYou(record) && record.status.outcome === "answered-elsewhere") {
      const line = askStatusLine(needsYouStatus(record, this.#center.deviceId, new Date()));
      if (line !== null) {
        this.#decisionLines.set(record.eventId, line);
        return line;
      }
    }
    return stoppedText(record);
  }

  /** What waits behind the ringing call, said again whenever it changes. */
  #followQueue(view: CallCenterView): void {
    const line = queueText(waitingCalls(view.calls, this.#setAside)) ?? "";
    if (line === this.#queueLine) return;
    const hadQueue = this.#queueLine !== "";
    this.#queueLine = line;
    if (line !== "") this.#write(`${line}\n`);
    else if (hadQueue) this.#write("Nothing else waits.\n");
  }

  /**
   * A call that needs you queued behind one that does not: the ringing call steps aside (here only; the other devices
   * ring on) and waits its turn, since an agent waits for the other. True when it did: the view is then stale, and the
   * call center's next view (with the call that needs you ringing) is followed instead.
   */
  #putNeedsYouFirst(view: CallCenterView): boolean {
    const ringing = ringingCall(view.calls);
    if (!ringing || !needsYouBehind(view.calls, ringing)) return false;
    this.#write(`${callerName(ringing)} waits: a call that needs you comes first.\n`);
    this.#setAside.add(ringing.eventId);
    if (this.#ringingId === ringing.eventId) this.#ringingId = null;
    this.#center.setAside(ringing.eventId);
    return true;
  }

  #followRinging(view: CallCenterView): void {
    const ringing = ringingCall(view.calls);
    const ringingId = ringing?.eventId ?? null;
    if (ringingId === this.#ringingId) return;
    const stopped = this.#ringingId === null ? undefined : view.calls.records[this.#ringingId];
    this.#ringingId = ringingId;
    if (stopped && stopped.status.state !== "in-call") this.#write(`${this.#stoppedText(stopped)}\n`);
    if (!ringing) return;
    const caller = callerName(ringing);
    this.#write(screensOf(ringing).ringing(ringing, caller));
    this.#notifier?.notify(`Ringback: ${caller}`, scriptOf(ringing).title);
    this.#center.ringShown(ringing.eventId);
  }

  #followActive(view: CallCenterView): void {
    const active: CallRecord | undefined = activeCall(view.calls);
    const activeId = active?.eventId ?? null;
    if (activeId === this.#activeId) return;
    if (this.#activeId !== null) this.#write("Call ended.\n");
    this.#activeId = activeId;
    if (!active) return;
    this.#lastAnsweredId = active.eventId;
    const caller = callerName(active);
    this.#write(screensOf(active).inCall(active, caller));
  }
}

/** What a call shows ringing and in the call: a permission ask, a tracker agent's question, or a finished turn. */
function screensOf(record: CallRecord) {
  if (isNeedsYou(record)) return { ringing: askRingingText, inCall: askInCallText };
  if (trackerQuestionOf(record)) return { ringing: questionRingingText, inCall: questionInCallText };
  return { ringing: ringingText, inCall: inCallText };
}

/** The start of a reply, to say which one a status line is about. */
function clipped(text: string): string {
  return text.length <= 40 ? text : `${text.slice(0, 39)}…`;
}
