import { type CallRecord, type CallsModel, callerName, ringsAsNeedsYou } from "@ringback/client";
import { scriptOf } from "./terminal-call.js";

/**
 * The terminal's order: a call that needs you (an agent waits for it) first, then the oldest. A terminal shows the
 * whole queue, so it is read in the order the calls came, not by the calls page's newest-first.
 */
function compareWaiting(a: CallRecord, b: CallRecord): number {
  return (
    Number(ringsAsNeedsYou(b)) - Number(ringsAsNeedsYou(a)) ||
    Date.parse(a.occurredAt) - Date.parse(b.occurredAt) ||
    (a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0)
  );
}

/** The calls that wait behind the ringing one: queued to ring, or set aside here for a call that needs you. */
export function waitingCalls(calls: CallsModel, setAside: ReadonlySet<string>): CallRecord[] {
  return Object.values(calls.records)
    .filter(
      (record) =>
        record.status.state === "queued" ||
        (record.status.state === "missed" &&
          record.status.missedReason === "set-aside" &&
          setAside.has(record.eventId)),
    )
    .sort(compareWaiting);
}

/** A queued call that needs you while a call that does not rings: the ringing one steps aside for it. */
export function needsYouBehind(calls: CallsModel, ringing: CallRecord): CallRecord | undefined {
  if (ringsAsNeedsYou(ringing)) return undefined;
  return Object.values(calls.records).find(
    (record) => record.status.state === "queued" && ringsAsNeedsYou(record),
  );
}

/** One line naming what waits, in the order it comes; null when nothing waits. */
export function queueText(waiting: readonly CallRecord[]): string | null {
  if (waiting.length === 0) return null;
  const names = waiting.map((record) => {
    const setAside = record.status.state === "missed" ? ", set aside: a answers it when nothing rings" : "";
    return `${ringsAsNeedsYou(record) ? "needs you: " : ""}${callerName(record)} (${scriptOf(record).title}${setAside})`;
  });
  return `Waiting (${waiting.length}): ${names.join("; ")}.`;
}
