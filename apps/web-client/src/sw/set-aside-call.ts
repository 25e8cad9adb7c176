import type { KeyValueStore } from "@ringback/client";
import {
  type CallRecord,
  callRecordKey,
  isRelayError,
  isWaiting,
  LocalSettings,
  loadAnsweredIds,
  newCallRecord,
  openRelayedEvent,
  type Pairing,
} from "@ringback/client";
import { storeMissedCall } from "./missed-call-record.js";
import { addSetAsideId } from "./set-aside-ids.js";
import { RELAY_WAIT_MS, workerRelay } from "./worker-relay.js";

/**
 * What "Later" did: `missed` stored the call as missed on this device; `set-aside` only kept its repeat pushes from
 * ringing (the relay did not give the call in time, or another key sealed it); `settled` found the call already over
 * here; `ended` found it over at the relay; `unpaired`, a device without its pairing.
 */
export type SetAside = "missed" | "set-aside" | "settled" | "ended" | "unpaired";

/**
 * "Later" on a ringing call's notification: the call stops ringing on this device only. It is stored as missed
 * ("set-aside"), so its repeat pushes show the silent missed-call
 * notice (`pushRing`: a missed call stays missed) and the page lists it among the missed calls to answer. Nothing is
 * written to the relay, so the other devices keep ringing. A call the device has no record of is fetched again
 * (`GET /v1/calls/<eventId>`) for its sealed report, within `relayWaitMs`.
 */
export async function setCallAside(
  eventId: string,
  store: KeyValueStore,
  fetchImpl: typeof fetch = (input, init) => fetch(input, init),
  now: () => Date = () => new Date(),
  relayWaitMs = RELAY_WAIT_MS,
): Promise<SetAside> {
  const pairing = await new LocalSettings(store).loadPairing();
  if (!pairing) return "unpaired";
  if ((await loadAnsweredIds(store)).includes(eventId)) return "settled";
  const known = await store.get<CallRecord>(callRecordKey(eventId));
  if (known && !isWaiting(known)) return "settled";
  // First, so that even a worker stopped while the relay answers never rings the call here again.
  await addSetAsideId(store, eventId);
  try {
    const record = known ?? (await pendingCall(eventId, pairing, fetchImpl, now(), relayWaitMs));
    if (!record) return "ended";
    await storeMissedCall(store, record, "set-aside");
    return "missed";
  } catch (error) {
    if (isRelayError(error) && error.status === 404) return "ended";
    // Offline, another key, storage failing: the id alone keeps it from ringing here.
    return "set-aside";
  }
}

/** A new record of the call while the relay still has it pending, else null. */
async function pendingCall(
  eventId: string,
  pairing: Pairing,
  fetchImpl: typeof fetch,
  learnedAt: Date,
  relayWaitMs: number,
): Promise<CallRecord | null> {
  const event = await workerRelay(pairing.identity, fetchImpl, relayWaitMs).getCall(eventId);
  if (event.status !== "pending") return null;
  return newCallRecord(event, await openRelayedEvent(pairing.key, event), learnedAt);
}
