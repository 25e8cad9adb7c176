import { PushMessage } from "@ringback/protocol";
import { OpenCallError, openRelayedEvent } from "../app/relay/open-call.js";
import { RelayClient } from "../app/relay/relay-client.js";
import { isRelayError } from "../app/relay/relay-error.js";
import { loadAnsweredIds } from "../app/storage/call-records.js";
import type { KeyValueStore } from "../app/storage/key-value.js";
import { LocalSettings } from "../app/storage/local-settings.js";
import { addressed } from "../app/voice/form-of-address.js";
import { callNotificationTag } from "../shared/notification-tag.js";
import { firstSentence } from "./first-sentence.js";

/** What the service worker does with one push. */
export type PushedCall =
  /** Show this notification (tag: the call's, so the page's own notification of the call is the same one). */
  | {
      readonly kind: "show";
      readonly eventId: string | null;
      readonly title: string;
      readonly body: string;
      readonly tag: string;
    }
  /** Nothing to ring: the call ended or was answered here, or this device is no longer paired. */
  | {
      readonly kind: "quiet";
      readonly eventId: string | null;
      readonly reason: "ended" | "answered-here" | "unpaired";
    };

/** The title of a notification whose brief could not be read (offline, another key): the app still rings it. */
export const GENERIC_CALL_TITLE = "Ringback";
export const GENERIC_CALL_BODY = "Your agent finished. Open Ringback to take the call.";

/**
 * Turns a push into a notification: the push carries only the event id and routing plaintext (`PushMessage`), so
 * the sealed event is fetched from the relay (`GET /v1/calls/<eventId>`) with this device's token and opened with
 * the end-to-end key kept on the device; the notification shows the brief's title and its first sentence. Nothing
 * readable ever passes the push service or the relay.
 */
export async function pushedCall(
  data: unknown,
  store: KeyValueStore,
  fetchImpl: typeof fetch = (input, init) => fetch(input, init),
): Promise<PushedCall> {
  const message = PushMessage.safeParse(data);
  if (!message.success) {
    return {
      kind: "show",
      eventId: null,
      title: GENERIC_CALL_TITLE,
      body: GENERIC_CALL_BODY,
      tag: callNotificationTag("unknown"),
    };
  }
  const { eventId } = message.data;
  const generic: PushedCall = {
    kind: "show",
    eventId,
    title: GENERIC_CALL_TITLE,
    body: GENERIC_CALL_BODY,
    tag: callNotificationTag(eventId),
  };
  const settings = new LocalSettings(store);
  const pairing = await settings.loadPairing();
  if (!pairing) return { kind: "quiet", eventId, reason: "unpaired" };
  if ((await loadAnsweredIds(store)).includes(eventId))
    return { kind: "quiet", eventId, reason: "answered-here" };
  const relay = new RelayClient({
    serverUrl: pairing.identity.serverUrl,
    deviceToken: pairing.identity.deviceToken,
    fetch: fetchImpl,
  });
  try {
    const event = await relay.getCall(eventId);
    if (event.status !== "pending") return { kind: "quiet", eventId, reason: "ended" };
    const { report, brief } = await openRelayedEvent(pairing.key, event);
    const spoken = brief.spoken.trim() !== "" ? brief.spoken : report.text;
    const address = await settings.loadFormOfAddress();
    const body = firstSentence(addressed(spoken, address, brief.meta.language));
    return { ...generic, title: brief.title.trim() || GENERIC_CALL_TITLE, body: body || GENERIC_CALL_BODY };
  } catch (error) {
    if (isRelayError(error) && error.status === 404) return { kind: "quiet", eventId, reason: "ended" };
    if (isRelayError(error) && error.isDeviceRemoved) return { kind: "quiet", eventId, reason: "unpaired" };
    // Offline, or sealed with another key: ring anyway, without the brief.
    if (isRelayError(error) || error instanceof OpenCallError) return generic;
    throw error;
  }
}
