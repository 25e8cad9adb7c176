import {
  type PushPublicKey,
  PushPublicKey as PushPublicKeySchema,
  type PushSubscriptionRequest,
  type PushSubscriptionState,
  PushSubscriptionState as PushSubscriptionStateSchema,
} from "@ringback/protocol";
import type { ZodType } from "zod";
import { type RelayConnection, relayConnection, requestRelay } from "../relay/relay-request.js";

/** This device's push routes at the relay (`/v1/push/*`); every answer is checked against the protocol schema. */
export class PushRelay {
  readonly #connection: RelayConnection;

  constructor(options: { serverUrl: string; deviceToken: string; fetch?: typeof fetch }) {
    this.#connection = relayConnection(options);
  }

  /** `GET /v1/push/public-key`: the relay's VAPID key, the `applicationServerKey` to subscribe with. */
  publicKey(): Promise<PushPublicKey> {
    return this.#request("GET", "/v1/push/public-key", PushPublicKeySchema);
  }

  subscription(): Promise<PushSubscriptionState> {
    return this.#request("GET", "/v1/push/subscription", PushSubscriptionStateSchema);
  }

  /** `PUT /v1/push/subscription`: registers (or replaces) this device's subscription. */
  subscribe(request: PushSubscriptionRequest): Promise<PushSubscriptionState> {
    return this.#request("PUT", "/v1/push/subscription", PushSubscriptionStateSchema, request);
  }

  unsubscribe(): Promise<PushSubscriptionState> {
    return this.#request("DELETE", "/v1/push/subscription", PushSubscriptionStateSchema);
  }

  #request<T>(method: string, path: string, schema: ZodType<T>, body?: unknown): Promise<T> {
    return requestRelay(this.#connection, method, path, schema, body);
  }
}
