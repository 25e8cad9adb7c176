import type { KeyValueStore } from "@ringback/client";
import { type CallRecord, CallRecordsStore, type MissedReason, withStatus } from "@ringback/client";

/**
 * Stores the call as missed on this device, as the page's reducer would have: when the page opens it finds the
 * record and neither admits nor rings the call again, even once ringing is allowed (the spec: it stays missed), and
 * lists it among the missed calls to answer. A record already stored keeps everything but its status.
 */
export async function storeMissedCall(
  store: KeyValueStore,
  record: CallRecord,
  missedReason: MissedReason,
): Promise<void> {
  const records = new CallRecordsStore(store);
  // Loaded first so the at-most-100 rule deletes the oldest records, as the page does.
  const stored = (await records.loadAll()).find((existing) => existing.eventId === record.eventId);
  await records.save(withStatus(stored ?? record, { state: "missed", missedReason }));
}
