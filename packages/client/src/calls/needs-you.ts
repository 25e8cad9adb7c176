import type { PermissionAsk } from "@ringback/protocol";
import { ClientError } from "../errors/client-error.js";
import type { CallRecord } from "./call-record.js";

/*
 * "Needs you" calls: an agent stopped mid-turn to ask permission, and waits for a device's decision until the ask's
 * `expiresAt`. The payload's `needsYou` is what makes a call one.
 */

/** The agent's ask, when the call is a "needs you" call. */
export function needsYouAsk(record: Pick<CallRecord, "payload">): PermissionAsk | null {
  return record.payload.needsYou ?? null;
}

export function isNeedsYou(record: Pick<CallRecord, "payload">): boolean {
  return needsYouAsk(record) !== null;
}

/**
 * Whether the agent has stopped waiting at `now`: its hook gave up at `expiresAt`, so a decision after it is refused
 * and ringing for it is pointless. False for a call that is not a "needs you" call.
 */
export function hasStoppedWaiting(record: Pick<CallRecord, "payload">, now: Date): boolean {
  const ask = needsYouAsk(record);
  if (!ask) return false;
  const expiresAt = Date.parse(ask.expiresAt);
  return !Number.isFinite(expiresAt) || now.getTime() >= expiresAt;
}

/** The project an ask comes from, as the ask in words names it: the last folder of the agent's working directory. */
export function askProject(record: Pick<CallRecord, "payload">): string | null {
  const cwd = record.payload.report.cwd?.replace(/[\\/]+$/, "");
  if (!cwd) return null;
  return cwd.split(/[\\/]/).pop() || null;
}

/** Why a decision cannot be sent on a call now; each is worded by the screen that offered the buttons. */
export type DecisionProblem =
  /** Not a "needs you" call: there is nothing to decide. */
  | "not-needs-you"
  /** The agent stopped waiting: the daemon would refuse the decision. */
  | "stopped-waiting"
  /** The call is not in progress here (answered on another device first, or hung up). */
  | "not-in-call"
  /** This device already sent a decision that was not refused. */
  | "already-decided"
  /** The relay did not say which computer raised the call: nobody could open the decision. */
  | "no-computer";

/** A decision refused before it was sent; `code` (and `problem`, the same word) says why. */
export class DecisionError extends ClientError<DecisionProblem> {
  override readonly name = "DecisionError";
  constructor(readonly problem: DecisionProblem) {
    super(problem, `The decision cannot be sent: ${problem}.`);
  }
}

/**
 * Whether this device may send a decision on the call at `now`: answered here (the first device to answer wins at
 * the relay, so the others stop ringing), before the agent stopped waiting, and not already decided here. Null when
 * it may. A decision the daemon refused (failed) may be sent again.
 */
export function decisionProblem(record: CallRecord | undefined, now: Date): DecisionProblem | null {
  if (!record || !isNeedsYou(record)) return "not-needs-you";
  if (record.status.state !== "in-call") return "not-in-call";
  if (hasStoppedWaiting(record, now)) return "stopped-waiting";
  if (record.fromDeviceId === null) return "no-computer";
  const sent = record.verdict;
  if (sent && record.status.replyDeliveries[sent.replyId]?.status !== "failed") return "already-decided";
  return null;
}
