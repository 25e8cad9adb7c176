import { ISSUE_PRIORITIES, type IssuePriority } from "@ringback/protocol";
import type { CallRecord } from "./call-record.js";
import { ringsAsNeedsYou } from "./tracker-question-call.js";

/** A tracker priority as the calls page sorts it; anything unknown (or a local agent's call) is `none`. */
function callPriority(record: CallRecord): IssuePriority {
  const priority = record.issue?.priority;
  return (ISSUE_PRIORITIES as readonly string[]).includes(priority ?? "")
    ? (priority as IssuePriority)
    : "none";
}

/**
 * 0 for urgent up to 4 for none: smaller is more urgent. A "needs you" call comes before them all (-1): an agent
 * waits for it (a permission ask until it expires, a tracker question until someone answers).
 */
function priorityRank(record: CallRecord): number {
  if (ringsAsNeedsYou(record)) return -1;
  return ISSUE_PRIORITIES.indexOf(callPriority(record));
}

/** The issue's update time; a call without an issue sorts by when its report was raised. */
function callUpdateTime(record: CallRecord): number {
  const updatedAt = record.issue?.updatedAt;
  const parsed = updatedAt ? Date.parse(updatedAt) : Number.NaN;
  return Number.isNaN(parsed) ? Date.parse(record.occurredAt) : parsed;
}

/**
 * The spec's order for the ring queue and both lists of the calls page: issue priority (urgent, high, medium,
 * low, none), then update time, newest first. The event id breaks ties so the order is stable.
 */
function compareCalls(a: CallRecord, b: CallRecord): number {
  return (
    priorityRank(a) - priorityRank(b) ||
    callUpdateTime(b) - callUpdateTime(a) ||
    (a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0)
  );
}

export function sortCalls(records: readonly CallRecord[]): CallRecord[] {
  return [...records].sort(compareCalls);
}

/** True when `candidate` has a strictly higher priority than `head`: the only reason an unshown head yields. */
export function isMoreUrgent(candidate: CallRecord, head: CallRecord): boolean {
  return priorityRank(candidate) < priorityRank(head);
}
