import type { LookupAddress } from "node:dns";
import { type Agent, request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import type { TLSSocket } from "node:tls";
import webpush from "web-push";
import { PUSH_ANSWER_TIMEOUT_MS, PUSH_CONNECT_TIMEOUT_MS } from "../relay-config.js";
import type { PushSubscriptionRecord, VapidKeys } from "../store/store.js";
import {
  InternalAddressError,
  isPublicAddress,
  type ResolveAll,
  systemResolveAll,
} from "./network-address.js";
import {
  type PushEndpoint,
  type PushEndpointPolicy,
  PushEndpointRefused,
  parsePushEndpoint,
} from "./push-endpoint.js";
import type { VapidTokens } from "./vapid-tokens.js";

/** A push service's answer body is read up to this (it is only logged by status); the rest is discarded. */
const PUSH_ANSWER_BODY_MAX_BYTES = 64 * 1024;

/** How the relay reaches push services. */
export interface PushTransport {
  /** RFC 8292 `sub`: a `mailto:` or `https:` contact for the push service's operator. */
  readonly subject: string;
  /** Which endpoints may be pushed to: checked again before every request (a stored one may predate a rule). */
  readonly endpoints: PushEndpointPolicy;
  /** The HTTPS agent (tests trust their push service's certificate with it). */
  readonly agent?: Agent;
  /** Name resolution (default: the system's); tests resolve names to loopback addresses they control. */
  readonly resolveAll?: ResolveAll;
  /** Default `PUSH_CONNECT_TIMEOUT_MS`. */
  readonly connectTimeoutMs?: number;
  /** Default `PUSH_ANSWER_TIMEOUT_MS`. */
  readonly answerTimeoutMs?: number;
}

/** What the push service said, in the terms the relay acts on. */
export type PushOutcome =
  | { readonly kind: "sent"; readonly status: number }
  /** 404 or 410: the subscription is gone for good. */
  | { readonly kind: "gone"; readonly status: number }
  /**
   * 429, 5xx, or no answer: try again later; `retryAfter` is the raw `Retry-After` header when one came, `timedOut`
   * says which wait ran out when one did.
   */
  | {
      readonly kind: "busy";
      readonly status: number | null;
      readonly retryAfter: string | null;
      readonly timedOut: "connect" | "answer" | null;
    }
  /** Any other answer (or a subscription nothing can be encrypted to): refused, not tried again. */
  | { readonly kind: "refused"; readonly status: number | null }
  /**
   * The endpoint is not one the relay may push to (its text, or the address its name resolves to right before the
   * connection): no connection was made, and the subscription is of no use.
   */
  | { readonly kind: "forbidden"; readonly reason: string };

export interface PushRequest {
  readonly subscription: PushSubscriptionRecord;
  /** The JSON to encrypt (`pushPayload`). */
  readonly payload: string;
  readonly keys: VapidKeys;
  /** Seconds the push service may hold the message (never past the time the call can still be answered). */
  readonly ttlSeconds: number;
  /** Same topic: the push service replaces an undelivered earlier message instead of queueing both. */
  readonly topic: string;
  /** RFC 8030 §5.3: `high` wakes a sleeping phone (a ringing call); `normal` may wait (a call that stopped). */
  readonly urgency: "high" | "normal";
}

/**
 * Sends one Web Push: RFC 8291 aes128gcm payload encryption to the browser's keys and RFC 8292 VAPID authorisation
 * (the `web-push` library's; the token from `tokens`), in a request built here from the endpoint's one checked parse, to the address its
 * name resolved to right before connecting, and only if that address is public (or the origin is trusted): a name
 * that resolves (or rebinds) into the relay's own network gets no connection. Never throws: every answer (or its
 * absence) is an outcome.
 */
export async function sendPush(
  transport: PushTransport,
  request: PushRequest,
  tokens: VapidTokens,
): Promise<PushOutcome> {
  const { subscription } = request;
  let endpoint: PushEndpoint;
  try {
    endpoint = parsePushEndpoint(subscription.endpoint, transport.endpoints);
  } catch (error) {
    if (error instanceof PushEndpointRefused) return { kind: "forbidden", reason: error.message };
    throw error;
  }
  let body: Buffer;
  let authorization: string;
  try {
    body = webpush.encrypt(subscription.p256dh, subscription.auth, request.payload, "aes128gcm").cipherText;
    authorization = tokens.authorization(endpoint.origin, transport.subject, request.keys);
  } catch {
    return { kind: "refused", status: null };
  }
  const headers = {
    TTL: String(request.ttlSeconds),
    Urgency: request.urgency,
    Topic: request.topic,
    "Content-Type": "application/octet-stream",
    "Content-Encoding": "aes128gcm",
    "Content-Length": String(body.length),
    Authorization: authorization,
  };
  try {
    const answer = await post(transport, endpoint, headers, body).catch((error: unknown) => {
      // A kept-alive socket the push service closed as the request went out: sent again at once on a new one (Node's
      // advice), not deferred to a retry seconds later. Had the first reached the device, the same topic replaces it.
      if (error instanceof StaleSocketError) return post(transport, endpoint, headers, body);
      throw error;
    });
    const { status } = answer;
    if (status >= 200 && status < 300) return { kind: "sent", status };
    if (status === 404 || status === 410) return { kind: "gone", status };
    if (status === 429 || status >= 500) {
      return { kind: "busy", status, retryAfter: answer.retryAfter, timedOut: null };
    }
    return { kind: "refused", status };
  } catch (error) {
    if (error instanceof InternalAddressError) return { kind: "forbidden", reason: error.message };
    if (error instanceof PushTimeout) {
      return { kind: "busy", status: null, retryAfter: null, timedOut: error.stage };
    }
    return isNetworkFailure(error)
      ? { kind: "busy", status: null, retryAfter: null, timedOut: null }
      : { kind: "refused", status: null };
  }
}

/** The request failed on a reused socket before any answer: the service had closed it. */
class StaleSocketError extends Error {
  override readonly name = "StaleSocketError";
  readonly code = "ECONNRESET";
}

class PushTimeout extends Error {
  override readonly name = "PushTimeout";
  readonly code = "ETIMEDOUT";
  constructor(readonly stage: "connect" | "answer") {
    super(`no ${stage} in time`);
  }
}

/** One POST to the endpoint; resolves with the status once the whole answer is in. */
function post(
  transport: PushTransport,
  endpoint: PushEndpoint,
  headers: Record<string, string>,
  body: Buffer,
): Promise<{ status: number; retryAfter: string | null }> {
  const connectTimeoutMs = transport.connectTimeoutMs ?? PUSH_CONNECT_TIMEOUT_MS;
  const answerTimeoutMs = transport.answerTimeoutMs ?? PUSH_ANSWER_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const outgoing = httpsRequest({
      method: "POST",
      host: endpoint.hostname,
      port: endpoint.port,
      path: endpoint.path,
      headers,
      lookup: checkedLookup(transport.resolveAll ?? systemResolveAll, endpoint.isTrusted),
      ...(transport.agent ? { agent: transport.agent } : {}),
    });
    let timer = setTimeout(() => outgoing.destroy(new PushTimeout("connect")), connectTimeoutMs);
    const connected = () => {
      clearTimeout(timer);
      timer = setTimeout(() => outgoing.destroy(new PushTimeout("answer")), answerTimeoutMs);
    };
    outgoing.on("socket", (socket) => {
      // A kept-alive socket is connected already; a new one once its TLS handshake is done.
      if ((socket as TLSSocket).connecting) socket.once("secureConnect", connected);
      else connected();
    });
    let hasAnswer = false;
    outgoing.on("response", (response) => {
      hasAnswer = true;
      let read = 0;
      response.on("data", (chunk: Buffer) => {
        read += chunk.length;
        if (read > PUSH_ANSWER_BODY_MAX_BYTES) response.destroy();
      });
      response.on("end", () => {
        clearTimeout(timer);
        resolve({
          status: response.statusCode ?? 0,
          retryAfter: headerValue(response.headers["retry-after"]),
        });
      });
      response.on("error", (error) => {
        clearTimeout(timer);
        reject(error);
      });
      response.on("close", () => {
        // Cut short (a body over the bound): the status is still the answer.
        clearTimeout(timer);
        resolve({
          status: response.statusCode ?? 0,
          retryAfter: headerValue(response.headers["retry-after"]),
        });
      });
    });
    outgoing.on("error", (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      const isStale = outgoing.reusedSocket && !hasAnswer && error.code === "ECONNRESET";
      reject(isStale ? new StaleSocketError() : error);
    });
    outgoing.end(body);
  });
}

/**
 * The lookup the connection uses: the name's addresses, every one of them public unless the origin is trusted, so the
 * socket connects to an address checked at this moment and a name that rebinds between checks gains nothing.
 */
function checkedLookup(resolveAll: ResolveAll, isTrusted: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolveAll(hostname).then(
      (found) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const addresses: LookupAddress[] = found.filter((entry) => wanted === 0 || entry.family === wanted);
        const internal = addresses.find((entry) => !isPublicAddress(entry.address));
        const first = addresses[0];
        if (first === undefined) {
          callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), "", 0);
        } else if (!isTrusted && internal !== undefined) {
          callback(
            new InternalAddressError("endpoint's host resolves to an address inside a private network."),
            "",
            0,
          );
        } else if (options.all) {
          (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
        } else {
          callback(null, first.address, first.family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, "", 0),
    );
  };
}

/** Connection refused or reset, DNS, TLS: the push service may answer later. */
function isNetworkFailure(error: unknown): boolean {
  return error instanceof Error && typeof (error as { code?: unknown }).code === "string";
}

function headerValue(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}
