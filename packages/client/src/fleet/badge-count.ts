import type { CallsModel } from "../calls/call-machine.js";
import { isWaiting } from "../calls/call-record.js";
import type { FleetEntry } from "./fleet-list.js";

/**
 * The app badge: what needs the person. Agents that need them (a permission ask, a tracker question) and calls not
 * yet answered (waiting to ring, ringing or missed). A needs-you agent whose call is on this device counts once.
 */
export function badgeCount(entries: readonly FleetEntry[], calls: CallsModel): number {
  const unanswered = Object.values(calls.records).filter(
    (record) => isWaiting(record) || record.status.state === "missed",
  );
  const counted = new Set(unanswered.map((record) => record.eventId));
  const needsYouElsewhere = entries.filter(
    (entry) => entry.state === "needs-you" && (entry.eventId === null || !counted.has(entry.eventId)),
  );
  return unanswered.length + needsYouElsewhere.length;
}
