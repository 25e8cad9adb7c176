import { z } from "zod";
import { CallStatus } from "./relay.js";
import { EventId, ReportSource } from "./report.js";

/*
 * Web Push (RFC 8030 delivery, RFC 8291 payload encryption, RFC 8292 VAPID): the relay's routes for a device's
 * push subscription and the messages the relay pushes. The pushed payload carries the event id and the routing
 * plaintext the relay already holds, never report, brief or reply text: a service worker fetches the sealed event
 * (`GET /v1/calls/<eventId>`) and opens it with the key kept on the device.
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

/** `GET /v1/push/public-key` (no auth): the relay's VAPID public key, the `applicationServerKey` to subscribe with. */
export const PushPublicKey = z.object({
  /** An uncompressed P-256 point (65 bytes), base64url without padding. */
  publicKey: z.string().regex(/^[A-Za-z0-9_-]{87}$/),
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
 * device (1 for the first, more while it keeps ringing). Strict: a field that could carry content has no place here.
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
