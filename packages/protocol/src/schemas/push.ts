import { z } from "zod";
import { CallStatus, SealedText } from "./relay.js";
import { EventId, ReportSource } from "./report.js";

/*
 * Web Push (RFC 8030 delivery, RFC 8291 payload encryption, RFC 8292 VAPID): the relay's routes for a device's
 * push subscription and the messages the relay pushes. The pushed payload carries the event id, the routing
 * plaintext the relay already holds and, when it fits, the call still sealed end to end; never report, brief or
 * reply text: a service worker opens the sealed call (or fetches it, `GET /v1/calls/<eventId>`) with the key kept on
 * the device. Every push is a Declarative Web Push message (docs/push.md): a browser that shows it by itself shows
 * only the relay's content-free words.
 */

const SECOND_MS = 1000;

/** A call still ringing is pushed again this often unless the device asks otherwise (`repeatSeconds`). */
export const PUSH_REPEAT_DEFAULT_SECONDS = 60;
/** The shortest repeat a device may ask for: push services throttle senders that push more often. */
export const PUSH_REPEAT_MIN_SECONDS = 15;
/** The longest repeat a device may ask for. */
export const PUSH_REPEAT_MAX_SECONDS = 3600;
/** Push endpoints are capability URLs minted by the browser's push service; none is anywhere near this long. */
export const PUSH_ENDPOINT_MAX_CHARS = 2048;
/**
 * Plaintext bytes a push may carry: push services take one RFC 8291 aes128gcm record of 4096 bytes, of which the
 * header (salt 16, record size 4, key id length 1, key id 65), the tag (16) and the padding delimiter (1) take 103.
 */
export const PUSH_PAYLOAD_MAX_BYTES = 4096 - 86 - 16 - 1;
/** The relay sends each due push at most this long after it fell due (its delivery loop's period). */
export const PUSH_POLL_DEFAULT_MS = SECOND_MS;

/** Base64url (RFC 4648 §5) as browsers write subscription keys, padding tolerated and dropped. */
function base64urlOfBytes(bytes: number) {
  const chars = Math.ceil((bytes * 4) / 3);
  return z
    .string()
    .regex(new RegExp(`^[A-Za-z0-9_-]{${chars}}=*$`), `must be ${bytes} bytes in base64url`)
    .transform((value) => value.replace(/=+$/, ""));
}

/**
 * `GET /v1/push/public-key` (no auth): the relay's VAPID public key, the `applicationServerKey` to subscribe with,
 * and the contact (`sub`) its VAPID tokens name, so `ringback doctor` can say what Apple's push service would refuse.
 */
export const PushPublicKey = z.object({
  /** An uncompressed P-256 point (65 bytes), base64url without padding. */
  publicKey: z.string().regex(/^[A-Za-z0-9_-]{87}$/),
  /** RFC 8292 `sub`: `mailto:` or `https:`; absent from relays older than it. */
  subject: z.string().optional(),
});
export type PushPublicKey = z.infer<typeof PushPublicKey>;

/** The browser's keys for a subscription (`PushSubscription.toJSON().keys`). */
export const PushSubscriptionKeys = z.object({
  /** The user agent's P-256 public key (65 bytes). */
  p256dh: base64urlOfBytes(65),
  /** The 16-byte authentication secret. */
  auth: base64urlOfBytes(16),
});
export type PushSubscriptionKeys = z.infer<typeof PushSubscriptionKeys>;

/**
 * `PUT /v1/push/subscription`: registers this device's push subscription, replacing any earlier one. The body is
 * `PushSubscription.toJSON()` plus the device's repeat setting; push services speak HTTPS only.
 */
export const PushSubscriptionRequest = z.object({
  endpoint: z.url({ protocol: /^https$/, error: "must be an https URL" }).max(PUSH_ENDPOINT_MAX_CHARS),
  /** Sent by browsers; the relay learns of an expired subscription from the push service's 404/410 instead. */
  expirationTime: z.number().nullable().optional(),
  keys: PushSubscriptionKeys,
  /** How often a call still ringing is pushed again. */
  repeatSeconds: z
    .number()
    .int()
    .min(PUSH_REPEAT_MIN_SECONDS)
    .max(PUSH_REPEAT_MAX_SECONDS)
    .default(PUSH_REPEAT_DEFAULT_SECONDS),
});
export type PushSubscriptionRequest = z.input<typeof PushSubscriptionRequest>;

/** `GET`, `PUT` and `DELETE /v1/push/subscription` (200): this device's subscription as the relay holds it. */
export const PushSubscriptionState = z.object({
  deviceId: z.string(),
  subscribed: z.boolean(),
  /** The endpoint the relay pushes to (the device's own); null when not subscribed. */
  endpoint: z.string().nullable(),
  repeatSeconds: z.number().int().nullable(),
  updatedAt: z.string().nullable(),
});
export type PushSubscriptionState = z.infer<typeof PushSubscriptionState>;

/**
 * A call is ringing. Only routing plaintext the relay already has; `attempt` counts the pushes of this call to this
 * device (1 for the first, more while it keeps ringing). `sealed` is the call as the devices fetch it (AAD
 * `ringback/v1/report/<eventId>`), when it fits the push; without it the worker fetches it. Strict: a field that
 * could carry readable content has no place here.
 */
export const PushCallMessage = z
  .object({
    type: z.literal("call"),
    eventId: EventId,
    seq: z.number().int().positive(),
    source: ReportSource,
    occurredAt: z.string(),
    receivedAt: z.string(),
    taskId: z.string().nullable(),
    fromDeviceId: z.string(),
    /** After this the call can no longer be answered. */
    expiresAt: z.string(),
    attempt: z.number().int().positive(),
    sealed: SealedText.optional(),
  })
  .strict();
export type PushCallMessage = z.infer<typeof PushCallMessage>;

/**
 * The call stopped ringing (answered, rejected, acknowledged or ended on another device, or expired): sent once to
 * the devices that were pushed it, with the call's topic, so its notification closes while the app is closed.
 * Routing data only, like the call's own push.
 */
export const PushCallSettledMessage = z
  .object({
    type: z.literal("call-settled"),
    eventId: EventId,
    status: CallStatus.exclude(["pending"]),
  })
  .strict();
export type PushCallSettledMessage = z.infer<typeof PushCallSettledMessage>;

/** What a push carries (JSON, encrypted to the browser per RFC 8291), told apart by `type`. */
export const PushMessage = z.discriminatedUnion("type", [PushCallMessage, PushCallSettledMessage]);
export type PushMessage = z.infer<typeof PushMessage>;

/** The tag of a call's notification: a push's, the service worker's and the page's for one call replace each other. */
export const PUSH_NOTIFICATION_TAG_PREFIX = "ringback-call-";

export function pushNotificationTag(eventId: string): string {
  return `${PUSH_NOTIFICATION_TAG_PREFIX}${eventId}`;
}

/** `web_push` of a Declarative Web Push message: the RFC number that marks it. */
export const DECLARATIVE_PUSH_MARKER = 8030;

/**
 * The notification a Declarative Web Push message describes: a browser that supports it (Safari, iOS/iPadOS 18.4+
 * home-screen apps) shows it by itself, with no service worker and no penalty when one fails, so `title` and `body`
 * are the relay's content-free words. `data` is the message a service worker works with: it opens the sealed call and
 * shows the real title in its place. `navigate` (absolute) opens the call on a tap.
 */
export const DeclarativePushNotification = z
  .object({
    title: z.string().min(1),
    body: z.string(),
    navigate: z.url(),
    tag: z.string(),
    silent: z.boolean(),
    requireInteraction: z.boolean(),
    data: PushMessage,
  })
  .strict();
export type DeclarativePushNotification = z.infer<typeof DeclarativePushNotification>;

/**
 * What the relay pushes (JSON, encrypted to the browser per RFC 8291). `mutable`: an installed service worker gets a
 * `pushnotification` event and may show a replacement; a browser without Declarative Web Push hands the same bytes
 * to the worker's `push` event.
 */
export const DeclarativePushMessage = z
  .object({
    web_push: z.literal(DECLARATIVE_PUSH_MARKER),
    notification: DeclarativePushNotification,
    mutable: z.boolean(),
  })
  .strict();
export type DeclarativePushMessage = z.infer<typeof DeclarativePushMessage>;

/**
 * The relay's message in a push's JSON: inside a declarative message's `notification.data`, or the whole payload (a
 * relay older than declarative pushes, or one without a public address to navigate to). Null for anything else.
 */
export function pushMessageOf(payload: unknown): PushMessage | null {
  const declarative = DeclarativePushMessage.safeParse(payload);
  if (declarative.success) return declarative.data.notification.data;
  const bare = PushMessage.safeParse(payload);
  return bare.success ? bare.data : null;
}
