import type { Agent } from "node:https";
import type { PushMessage } from "@ringback/protocol";
import webpush from "web-push";
import type { PushSubscriptionRecord, VapidKeys } from "../store/store.js";

/** A push service that neither answers nor fails within this long is treated like a 5xx (retried). */
const PUSH_SEND_TIMEOUT_MS = 15_000;

/** How the relay reaches push services: its VAPID contact, and (for tests) the HTTPS agent to use. */
export interface PushTransport {
  /** RFC 8292 `sub`: a `mailto:` or `https:` contact for the push service's operator. */
  readonly subject: string;
  readonly agent?: Agent;
  /** How long a push service may stay silent (connecting, handshaking or answering); default `PUSH_SEND_TIMEOUT_MS`. */
  readonly timeoutMs?: number;
}

/** What the push service said, in the terms the relay acts on. */
export type PushOutcome =
  | { readonly kind: "sent"; readonly status: number }
  /** 404 or 410: the subscription is gone for good. */
  | { readonly kind: "gone"; readonly status: number }
  /** 429, 5xx, or no answer: try again later; `retryAfter` is the raw `Retry-After` header when one came. */
  | { readonly kind: "busy"; readonly status: number | null; readonly retryAfter: string | null }
  /** Any other answer (or a subscription the library cannot encrypt to): refused, not tried again. */
  | { readonly kind: "refused"; readonly status: number | null };

export interface PushRequest {
  readonly subscription: PushSubscriptionRecord;
  readonly message: PushMessage;
  readonly keys: VapidKeys;
  /** Seconds the push service may hold the message (never past the time the call can still be answered). */
  readonly ttlSeconds: number;
  /** Same topic: the push service replaces an undelivered earlier message instead of queueing both. */
  readonly topic: string;
  /** RFC 8030 §5.3: `high` wakes a sleeping phone (a ringing call); `normal` may wait (a call that stopped). */
  readonly urgency: "high" | "normal";
}

/**
 * Sends one Web Push with the `web-push` library: RFC 8291 aes128gcm payload encryption to the browser's keys,
 * RFC 8292 VAPID authorisation, the request's urgency and topic. Never throws: every answer (or its absence) is an outcome.
 */
export async function sendPush(transport: PushTransport, request: PushRequest): Promise<PushOutcome> {
  const { subscription } = request;
  try {
    const result = await webpush.sendNotification(
      { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
      JSON.stringify(request.message),
      {
        vapidDetails: {
          subject: transport.subject,
          publicKey: request.keys.publicKey,
          privateKey: request.keys.privateKey,
        },
        TTL: request.ttlSeconds,
        urgency: request.urgency,
        topic: request.topic,
        contentEncoding: "aes128gcm",
        timeout: transport.timeoutMs ?? PUSH_SEND_TIMEOUT_MS,
        ...(transport.agent ? { agent: transport.agent } : {}),
      },
    );
    return { kind: "sent", status: result.statusCode };
  } catch (error) {
    if (!(error instanceof webpush.WebPushError)) {
      return isNetworkFailure(error)
        ? { kind: "busy", status: null, retryAfter: null }
        : { kind: "refused", status: null };
    }
    const status = error.statusCode;
    if (status === 404 || status === 410) return { kind: "gone", status };
    if (status === 429 || status >= 500) {
      return { kind: "busy", status, retryAfter: headerValue(error.headers, "retry-after") };
    }
    return { kind: "refused", status };
  }
}

/** Connection refused or reset, DNS, TLS, or the socket timeout: the push service may answer later. */
function isNetworkFailure(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return typeof (error as { code?: unknown }).code === "string" || error.message === "Socket timeout";
}

function headerValue(headers: Record<string, string | string[] | undefined> | undefined, name: string) {
  const value = headers?.[name];
  return (Array.isArray(value) ? value[0] : value) ?? null;
}
