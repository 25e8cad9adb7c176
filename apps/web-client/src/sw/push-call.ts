import type { KeyValueStore } from "@ringback/client";
import {
  addressed,
  type CallRecord,
  callRecordKey,
  hasStoppedWaiting,
  isRaisedBeforeJoining,
  isRelayError,
  LocalSettings,
  loadAnsweredIds,
  newCallRecord,
  OpenCallError,
  openRelayedEvent,
  RING_MODES_KEY,
  readStoredModes,
} from "@ringback/client";
import type { NotificationTexts } from "@ringback/client/texts";
import { projectOf } from "@ringback/client/views";
import { pushMessageOf, type RelayedEvent, type SealedReportPayload } from "@ringback/protocol";
import { callNotificationTag } from "../shared/notification-tag.js";
import { type CallNotice, ringingActions } from "./call-notification.js";
import { firstSentence } from "./first-sentence.js";
import { storeMissedCall } from "./missed-call-record.js";
import { loadNotificationTexts } from "./notification-texts.js";
import { type PushRing, pushRing } from "./push-ring-decision.js";
import { settledPush } from "./push-settled.js";
import { pushedEvent } from "./pushed-event.js";
import { loadSetAsideIds } from "./set-aside-ids.js";
import { RELAY_WAIT_MS, workerRelay } from "./worker-relay.js";

/** What the service worker does with one push. */
export type PushedCall =
  /**
   * Show this notification (tag: the call's, so the page's own notification of the call is the same one): `show`
   * rings with "Answer" and "Later", `missed` is a silent "Missed call" without actions (the device's ring modes do
   * not allow ringing now, or the device already holds the call as missed or set aside with "Later").
   */
  | CallNotice
  /**
   * Nothing to show: the call ended, was answered here, this device already settled it (ended, acknowledged, in a
   * call, failed), the relay says it stopped ringing (a `call-settled` push), or this device is no longer paired.
   */
  | {
      readonly kind: "quiet";
      readonly eventId: string | null;
      readonly reason: "ended" | "answered-here" | "settled-here" | "settled-elsewhere" | "unpaired";
    };

/** The call a push names, when it is one of the relay's (declarative or bare). */
export function pushedEventId(data: unknown): string | null {
  return pushMessageOf(data)?.eventId ?? null;
}

/** The words of a call whose brief cannot be read. */
export interface UnreadWords {
  readonly title: string;
  readonly body: string;
}

/** A call notification before the ring modes had their say. */
interface UnrungNotice {
  readonly eventId: string | null;
  readonly title: string;
  readonly body: string;
  readonly tag: string;
}

/**
 * Turns a push into a notification: the push carries the event id, routing plaintext and, when it fit, the call
 * still sealed (`PushMessage`, bare or in a declarative message's `notification.data`); a call carried by reference
 * is fetched from the relay (`GET /v1/calls/<eventId>`) with this device's token. Either is opened with the
 * end-to-end key kept on the device; the notification shows the brief's title (after the call's tracker project,
 * named as the calls page names it) and its first sentence. Nothing readable ever passes the push service or the
 * relay. The device's ring modes and its call record decide whether the call rings or arrives as a silent missed
 * call (`pushRing`); a call missed that way is stored as missed. A `call-settled` push shows nothing and settles the
 * call's record (`settledPush`). The notification's own texts (the missed-call title, the generic call when the
 * brief cannot be read, the actions) follow the device's interface language, resolved against `preferredLanguages`
 * (the browser's, `navigator.languages`); the brief's are the report language's. The relay gets `relayWaitMs` to
 * answer, its body included.
 */
export async function pushedCall(
  data: unknown,
  store: KeyValueStore,
  fetchImpl: typeof fetch = (input, init) => fetch(input, init),
  now: () => Date = () => new Date(),
  preferredLanguages: readonly string[] = [],
  relayWaitMs = RELAY_WAIT_MS,
  unreadWords?: UnreadWords,
): Promise<PushedCall> {
  const modes = readStoredModes(await store.get(RING_MODES_KEY));
  const message = pushMessageOf(data);
  if (message?.type === "call-settled") return settledPush(message, store, now);
  const texts = await loadNotificationTexts(store, preferredLanguages);
  const unread = unreadWords ?? { title: texts.genericCallTitle, body: texts.genericCallBody };
  if (message === null) {
    const unknown = unrungNotice(null, unread.title, unread.body);
    return asRung(unknown, pushRing(undefined, modes, now()), texts);
  }
  const { eventId } = message;
  const generic = unrungNotice(eventId, unread.title, unread.body);
  const settings = new LocalSettings(store);
  const pairing = await settings.loadPairing();
  if (!pairing) return { kind: "quiet", eventId, reason: "unpaired" };
  if ((await loadAnsweredIds(store)).includes(eventId))
    return { kind: "quiet", eventId, reason: "answered-here" };
  const known = await store.get<CallRecord>(callRecordKey(eventId));
  // Set aside with "Later" but not stored as missed (the relay did not answer then): it stays missed all the same.
  const knownState =
    known?.status.state ?? ((await loadSetAsideIds(store)).includes(eventId) ? "missed" : undefined);
  let event: RelayedEvent;
  let payload: SealedReportPayload;
  try {
    // A call carried sealed needs no relay: a phone offline since the push still opens it. Had it stopped ringing
    // since, its `call-settled` push (same topic) replaced this one at the push service, or closes it next.
    event =
      pushedEvent(message) ?? (await workerRelay(pairing.identity, fetchImpl, relayWaitMs).getCall(eventId));
    if (event.status !== "pending") return { kind: "quiet", eventId, reason: "ended" };
    payload = await openRelayedEvent(pairing.key, event);
  } catch (error) {
    if (isRelayError(error) && error.status === 404) return { kind: "quiet", eventId, reason: "ended" };
    if (isRelayError(error) && error.isDeviceRemoved) return { kind: "quiet", eventId, reason: "unpaired" };
    // Offline, or sealed with another key: ring anyway (if the ring modes allow), without the brief.
    if (isRelayError(error) || error instanceof OpenCallError)
      return asRung(generic, pushRing(knownState, modes, now()), texts);
    throw error;
  }
  const learnedAt = now();
  // Raised before this device joined: it was meant for the devices there then, and never rings here.
  const isBeforeJoining =
    knownState === undefined && isRaisedBeforeJoining(event.occurredAt, pairing.identity.joinedAt);
  // A "needs you" call whose agent stopped waiting: a decision now would be refused, so it never rings.
  const isStoppedWaiting = knownState === undefined && hasStoppedWaiting({ payload }, learnedAt);
  const ring: PushRing =
    isBeforeJoining || isStoppedWaiting
      ? { kind: "missed", isRecorded: true }
      : pushRing(knownState, modes, learnedAt);
  if (ring.kind === "none") return { kind: "quiet", eventId, reason: "settled-here" };
  const record = newCallRecord(event, payload, learnedAt);
  const { report, brief } = payload;
  const spoken = brief.spoken.trim() !== "" ? brief.spoken : report.text;
  const address = await settings.loadFormOfAddress();
  const body = firstSentence(addressed(spoken, address, brief.meta.language));
  const title = brief.title.trim() || texts.genericCallTitle;
  const project = projectOf(record)?.name;
  const notice = unrungNotice(
    eventId,
    project ? texts.projectCallTitle(project, title) : title,
    body || texts.genericCallBody,
  );
  if (ring.kind === "missed" && ring.isRecorded) {
    // Storage failing must not cost the notification; the page then applies the ring modes itself on learning it.
    const reason = isBeforeJoining
      ? "before-joining"
      : isStoppedWaiting
        ? "stopped-waiting"
        : "outside-ringing-period";
    await storeMissedCall(store, record, reason).catch(() => undefined);
  }
  return asRung(notice, ring, texts);
}

function unrungNotice(eventId: string | null, title: string, body: string): UnrungNotice {
  return { eventId, title, body, tag: callNotificationTag(eventId ?? "unknown") };
}

function asRung(notice: UnrungNotice, ring: PushRing, texts: NotificationTexts): PushedCall {
  if (ring.kind === "none") return { kind: "quiet", eventId: notice.eventId, reason: "settled-here" };
  if (ring.kind === "ring") return { kind: "show", ...notice, actions: ringingActions(texts) };
  return { kind: "missed", ...notice, title: texts.missedCallTitle(notice.title), actions: [] };
}
