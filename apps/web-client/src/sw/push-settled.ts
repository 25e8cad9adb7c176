import type { CallRecord, KeyValueStore } from "@ringback/client";
import {
  ALWAYS_RING,
  CallRecordsStore,
  callRecordKey,
  LocalSettings,
  loadAnsweredIds,
  reduceCalls,
} from "@ringback/client";
import type { PushCallSettledMessage } from "@ringback/protocol";

/** Why a push shows nothing: this one says the call stopped ringing (answered, ended... elsewhere, or expired). */
export type SettledPush = {
  readonly kind: "quiet";
  readonly eventId: string;
  readonly reason: "settled-elsewhere" | "unpaired";
};

/**
 * A `call-settled` push: the call stopped ringing on another device (or expired). Nothing is shown, and the
 * worker closes the call's notification, as for any push that finds the call over. A call record this device keeps
 * (the missed call the worker stored while the app was closed, or one the page left) takes the status the page's
 * own reducer gives the same `call-status` (a missed call answered elsewhere ends "answered-elsewhere"), so the page
 * shows it settled when it opens.
 */
export async function settledPush(
  message: PushCallSettledMessage,
  store: KeyValueStore,
  now: () => Date = () => new Date(),
): Promise<SettledPush> {
  const { eventId } = message;
  const pairing = await new LocalSettings(store).loadPairing();
  if (!pairing) return { kind: "quiet", eventId, reason: "unpaired" };
  // Storage failing must not keep the notification open; the page learns the status from the relay anyway.
  await recordSettled(store, message, pairing.identity.deviceId, now()).catch(() => undefined);
  return { kind: "quiet", eventId, reason: "settled-elsewhere" };
}

async function recordSettled(
  store: KeyValueStore,
  message: PushCallSettledMessage,
  deviceId: string,
  at: Date,
): Promise<void> {
  const record = await store.get<CallRecord>(callRecordKey(message.eventId));
  if (!record) return;
  const model = { records: { [record.eventId]: record }, answeredIds: await loadAnsweredIds(store) };
  // The relay never pushes a device its own write; a null device is read as the relay's word, like a replay.
  const action = {
    type: "remote-status",
    eventId: record.eventId,
    status: message.status,
    deviceId: null,
  } as const;
  // A remote status never asks the ring schedule; the page's reducer needs one all the same.
  const { model: next } = reduceCalls(model, action, { now: at, schedule: ALWAYS_RING, deviceId });
  const settled = next.records[record.eventId];
  if (!settled || settled === record) return;
  // Only the status fields: what the user said about the call stays as stored (the page may have written since).
  await new CallRecordsStore(store).saveLaterStatus(settled);
}
