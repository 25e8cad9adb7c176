import {
  type PushPublicKey,
  PushPublicKey as PushPublicKeySchema,
  type PushSubscriptionRequest,
  type PushSubscriptionState,
  PushSubscriptionState as PushSubscriptionStateSchema,
} from "@ringback/protocol";
import type { ZodType } from "zod";
import { RelayError, relayErrorFrom } from "../relay/relay-error.js";

/** This device's push routes at the relay (`/v1/push/*`); every answer is checked against the protocol schema. */
export class PushRelay {
  readonly #serverUrl: string;
  readonly #deviceToken: string;
  readonly #fetch: typeof fetch;

  constructor(options: { serverUrl: string; deviceToken: string; fetch?: typeof fetch }) {
    this.#serverUrl = options.serverUrl.replace(/\/+$/, "");
    this.#deviceToken = options.deviceToken;
    this.#fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
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

  async #request<T>(method: string, path: string, schema: ZodType<T>, body?: unknown): Promise<T> {
    const headers: Record<string, string> = {
      Accept: "application/json",
      Authorization: `Bearer ${this.#deviceToken}`,
    };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    let response: Response;
    try {
      response = await this.#fetch(`${this.#serverUrl}${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (cause) {
      throw new RelayError(null, null, `The relay at ${this.#serverUrl} could not be reached.`, { cause });
    }
    if (!response.ok) throw await relayErrorFrom(response);
    const parsed = schema.safeParse(await response.json().catch(() => undefined));
    if (!parsed.success) {
      throw new RelayError(
        response.status,
        null,
        `The relay's answer to ${method} ${path} has an unexpected shape.`,
      );
    }
    return parsed.data;
  }
}
