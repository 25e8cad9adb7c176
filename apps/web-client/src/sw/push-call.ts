import { PushMessage, type RelayedEvent, type SealedReportPayload } from "@ringback/protocol";
import { type CallRecord, newCallRecord, withStatus } from "../app/calls/call-record.js";
import type { NotificationTexts } from "../app/i18n/texts/notifications.js";
import { OpenCallError, openRelayedEvent } from "../app/relay/open-call.js";
import { RelayClient } from "../app/relay/relay-client.js";
import { isRelayError } from "../app/relay/relay-error.js";
import { readStoredModes } from "../app/ring-schedule/stored-modes.js";
import { CallRecordsStore, loadAnsweredIds } from "../app/storage/call-records.js";
import type { KeyValueStore } from "../app/storage/key-value.js";
import { LocalSettings } from "../app/storage/local-settings.js";
import { addressed } from "../app/voice/form-of-address.js";
import { callNotificationTag } from "../shared/notification-tag.js";
import { callRecordKey, RING_MODES_KEY } from "../shared/storage-keys.js";
import { firstSentence } from "./first-sentence.js";
import { loadNotificationTexts } from "./notification-texts.js";
import { type PushRing, pushRing } from "./push-ring-decision.js";
import { settledPush } from "./push-settled.js";

/**
 * How long the worker waits for the relay's copy of the call: a push must end in a notification, so a relay that does
 * not answer in time gets the call rung without its brief rather than not at all.
 */
export const RELAY_WAIT_MS = 8_000;

/** What the service worker does with one push. */
export type PushedCall =
  /**
   * Show this notification (tag: the call's, so the page's own notification of the call is the same one): `show`
   * rings, `missed` is a silent "Missed call" (the device's ring modes do not allow ringing now, or the device
   * already holds the call as missed).
   */
  | {
      readonly kind: "show" | "missed";
      readonly eventId: string | null;
      readonly title: string;
      readonly body: string;
      readonly tag: string;
    }
  /**
   * Nothing to show: the call ended, was answered here, this device already settled it (ended, acknowledged, in a
   * call, failed), the relay says it stopped ringing (a `call-settled` push), or this device is no longer paired.
   */
  | {
      readonly kind: "quiet";
      readonly eventId: string | null;
      readonly reason: "ended" | "answered-here" | "settled-here" | "settled-elsewhere" | "unpaired";
    };

/**
 * Turns a push into a notification: the push carries only the event id and routing plaintext (`PushMessage`), so
 * the sealed event is fetched from the relay (`GET /v1/calls/<eventId>`) with this device's token and opened with
 * the end-to-end key kept on the device; the notification shows the brief's title and its first sentence. Nothing
 * readable ever passes the push service or the relay. The device's ring modes and its call record decide whether
 * the call rings or arrives as a silent missed call (`pushRing`); a call missed that way is stored as missed. A
 * `call-settled` push shows nothing and settles the call's record (`settledPush`). The notification's own texts
 * (the missed-call title, the generic call when the brief cannot be read) follow the device's interface language,
 * resolved against `preferredLanguages` (the browser's, `navigator.languages`); the brief's are the report language's.
 * The relay gets `relayWaitMs` to answer, its body included.
 */
export async function pushedCall(
  data: unknown,
  store: KeyValueStore,
  fetchImpl: typeof fetch = (input, init) => fetch(input, init),
  now: () => Date = () => new Date(),
  preferredLanguages: readonly string[] = [],
  relayWaitMs = RELAY_WAIT_MS,
): Promise<PushedCall> {
  const modes = readStoredModes(await store.get(RING_MODES_KEY));
  const message = PushMessage.safeParse(data);
  if (message.success && message.data.type === "call-settled") return settledPush(message.data, store, now);
  const texts = await loadNotificationTexts(store, preferredLanguages);
  if (!message.success) {
    const unknown = callNotice(null, texts.genericCallTitle, texts.genericCallBody);
    return asRung(unknown, pushRing(undefined, modes, now()), texts);
  }
  const { eventId } = message.data;
  const generic = callNotice(eventId, texts.genericCallTitle, texts.genericCallBody);
  const settings = new LocalSettings(store);
  const pairing = await settings.loadPairing();
  if (!pairing) return { kind: "quiet", eventId, reason: "unpaired" };
  if ((await loadAnsweredIds(store)).includes(eventId))
    return { kind: "quiet", eventId, reason: "answered-here" };
  const known = await store.get<CallRecord>(callRecordKey(eventId));
  const relay = new RelayClient({
    serverUrl: pairing.identity.serverUrl,
    deviceToken: pairing.identity.deviceToken,
    fetch: (input, init) => fetchImpl(input, { ...init, signal: AbortSignal.timeout(relayWaitMs) }),
  });
  let event: RelayedEvent;
  let payload: SealedReportPayload;
  try {
    event = await relay.getCall(eventId);
    if (event.status !== "pending") return { kind: "quiet", eventId, reason: "ended" };
    payload = await openRelayedEvent(pairing.key, event);
  } catch (error) {
    if (isRelayError(error) && error.status === 404) return { kind: "quiet", eventId, reason: "ended" };
    if (isRelayError(error) && error.isDeviceRemoved) return { kind: "quiet", eventId, reason: "unpaired" };
    // Offline, or sealed with another key: ring anyway (if the ring modes allow), without the brief.
    if (isRelayError(error) || error instanceof OpenCallError)
      return asRung(generic, pushRing(known?.status.state, modes, now()), texts);
    throw error;
  }
  const learnedAt = now();
  const ring = pushRing(known?.status.state, modes, learnedAt);
  if (ring.kind === "none") return { kind: "quiet", eventId, reason: "settled-here" };
  const { report, brief } = payload;
  const spoken = brief.spoken.trim() !== "" ? brief.spoken : report.text;
  const address = await settings.loadFormOfAddress();
  const body = firstSentence(addressed(spoken, address, brief.meta.language));
  const notice = callNotice(
    eventId,
    brief.title.trim() || texts.genericCallTitle,
    body || texts.genericCallBody,
  );
  if (ring.kind === "missed" && ring.isRecorded) {
    // Storage failing must not cost the notification; the page then applies the ring modes itself on learning it.
    await recordMissed(store, event, payload, learnedAt).catch(() => undefined);
  }
  return asRung(notice, ring, texts);
}

/** A call notification before the ring modes had their say. */
function callNotice(eventId: string | null, title: string, body: string) {
  return { eventId, title, body, tag: callNotificationTag(eventId ?? "unknown") };
}

function asRung(notice: ReturnType<typeof callNotice>, ring: PushRing, texts: NotificationTexts): PushedCall {
  if (ring.kind === "none") return { kind: "quiet", eventId: notice.eventId, reason: "settled-here" };
  if (ring.kind === "ring") return { kind: "show", ...notice };
  return { kind: "missed", ...notice, title: texts.missedCallTitle(notice.title) };
}

/**
 * Stores the call as missed ("outside-ringing-period"), as the page's reducer would have: when the page opens, it
 * finds the record and neither admits nor rings the call again, even once ringing is allowed (the spec: it stays
 * missed). Written only when the device had no record of the call.
 */
async function recordMissed(
  store: KeyValueStore,
  event: RelayedEvent,
  payload: SealedReportPayload,
  learnedAt: Date,
): Promise<void> {
  const routing = {
    eventId: event.eventId,
    source: event.source,
    occurredAt: event.occurredAt,
    fromDeviceId: event.fromDeviceId,
  };
  const record = withStatus(newCallRecord(routing, payload, learnedAt), {
    state: "missed",
    missedReason: "outside-ringing-period",
  });
  const records = new CallRecordsStore(store);
  // Loaded first so the at-most-100 rule deletes the oldest records, as the page does.
  await records.loadAll();
  await records.save(record);
}
