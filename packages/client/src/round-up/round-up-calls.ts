import { FLEET_HEADLINE_MAX_CHARS } from "@ringback/protocol";
import type { CallsModel } from "../calls/call-machine.js";
import type { CallRecord, MissedReason } from "../calls/call-record.js";
import { askProject, hasStoppedWaiting, isNeedsYou } from "../calls/needs-you.js";
import { isTestCall } from "../calls/test-call.js";
import { ringsAsNeedsYou } from "../calls/tracker-question-call.js";
import type { FleetEntry } from "../fleet/fleet-list.js";

/** What a call of a round-up is about: an agent waiting for the person, a turn that ended, or one that failed. */
export type RoundUpKind = "needs-you" | "finished" | "failed";

/** One call as the round-up's opening names it: only checked words the computer wrote, never a model's new ones. */
export interface RoundUpItem {
  readonly eventId: string;
  readonly project: string;
  readonly kind: RoundUpKind;
  /** The checked brief's headline, or what a needs-you agent wants; null when there is none (a failed brief). */
  readonly headline: string | null;
  /** The brief language of the call. */
  readonly language: string;
}

/**
 * The missed calls a round-up reads: those left for one (a quiet call, one skipped or hung up on in a round-up, one
 * set aside with Later) and those the ring modes kept silent. A call missed for another reason (learned late, its
 * ringing interrupted, expired, raised before this device joined) stays on the calls page: a round-up says what waits
 * now, not the whole backlog.
 */
const ROUND_UP_MISSED_REASONS: readonly MissedReason[] = [
  "quiet",
  "skipped",
  "set-aside",
  "outside-ringing-period",
  "ringing-period-ended",
];

/**
 * Whether a call waits for the person and belongs in a round-up: waiting to ring, ringing, or missed for a reason
 * above, from any computer. A needs-you call whose agent stopped waiting has nothing left to decide; a test call is
 * no agent's.
 */
export function isRoundUpCall(record: CallRecord, now: Date): boolean {
  if (isTestCall(record.eventId)) return false;
  const { state, missedReason } = record.status;
  const isWaitingHere =
    state === "queued" ||
    state === "ringing" ||
    (state === "missed" && missedReason !== null && ROUND_UP_MISSED_REASONS.includes(missedReason));
  return isWaitingHere && !hasStoppedWaiting(record, now);
}

/** The calls a round-up reads, needs-you first, then the oldest first. */
export function roundUpCalls(calls: CallsModel, now: Date): CallRecord[] {
  return Object.values(calls.records)
    .filter((record) => isRoundUpCall(record, now))
    .sort(
      (a, b) =>
        Number(ringsAsNeedsYou(b)) - Number(ringsAsNeedsYou(a)) ||
        Date.parse(a.occurredAt) - Date.parse(b.occurredAt) ||
        (a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0),
    );
}

/**
 * A call as its round-up names it. The fleet's entry for the call (the computer's own words: the checked headline,
 * or what a needs-you agent wants, and whether the turn failed) comes first; without one, the call's brief.
 */
export function roundUpItem(record: CallRecord, fleet: readonly FleetEntry[]): RoundUpItem {
  const entry = fleet.find((candidate) => candidate.eventId === record.eventId);
  const kind: RoundUpKind = ringsAsNeedsYou(record)
    ? "needs-you"
    : entry?.state === "failed"
      ? "failed"
      : "finished";
  return {
    eventId: record.eventId,
    project: entry?.project || callProject(record),
    kind,
    headline: clean(entry?.headline ?? briefHeadline(record)),
    language: record.payload.brief.meta.language,
  };
}

/** The project a call comes from: the tracker's project, else the last folder of the agent's working directory. */
function callProject(record: CallRecord): string {
  return (
    record.issue?.projectName ??
    askProject(record) ??
    record.payload.report.tracker?.agentName ??
    record.source
  );
}

/**
 * The brief's title when the brief was checked (generated); a failed brief has none. A permission ask's title names
 * the agent before what it wants ("Claude Code needs you: run a command"): the round-up names the project instead,
 * so only what it wants is kept.
 */
function briefHeadline(record: CallRecord): string | null {
  const { brief } = record.payload;
  if (brief.meta.status !== "generated") return null;
  if (!isNeedsYou(record)) return brief.title;
  const wants = brief.title
    .split(/[:：]\s*/)
    .slice(1)
    .join(": ");
  return wants || brief.title;
}

/** One line, no closing stop (the opening adds its own), no longer than a fleet headline. */
function clean(headline: string | null): string | null {
  const line = headline
    ?.replace(/\s+/g, " ")
    .trim()
    .replace(/[.。!！]+$/, "")
    .slice(0, FLEET_HEADLINE_MAX_CHARS);
  return line ? line : null;
}
