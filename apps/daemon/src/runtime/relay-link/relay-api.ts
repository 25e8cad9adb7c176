import {
  type CreateAccountRequest,
  DeviceCredentials,
  DeviceList,
  DeviceRenamed,
  ErrorBody,
  isErrorCode,
  KeyRotationList,
  PairingCodeCreated,
  type RedeemPairingCodeRequest,
  RelayedFleet,
  RelaySetup,
  RingbackError,
} from "@ringback/protocol";
import type { z } from "zod";

/** One call to the relay's account API; the relay answers these at once, so a slow one is a broken one. */
const RELAY_API_TIMEOUT_MS = 15_000;

/** The relay's account, device and pairing routes, as the daemon and `ringback login|pair` use them. */
export class RelayApi {
  readonly serverUrl: string;
  readonly #fetch: typeof globalThis.fetch;

  constructor(serverUrl: string, fetchImpl: typeof globalThis.fetch = globalThis.fetch) {
    this.serverUrl = serverUrl.replace(/\/+$/, "");
    this.#fetch = fetchImpl;
  }

  /** `GET /v1/setup`: whether a new account needs the relay's claim code. */
  setup(): Promise<RelaySetup> {
    return this.#call("GET", "/v1/setup", RelaySetup);
  }

  /** `POST /v1/accounts`: the first device creates the account. */
  createAccount(body: CreateAccountRequest): Promise<DeviceCredentials> {
    return this.#call("POST", "/v1/accounts", DeviceCredentials, { body });
  }

  /** `POST /v1/pairing-codes/redeem`: joins the code's account as a new device. */
  redeemPairingCode(body: RedeemPairingCodeRequest): Promise<DeviceCredentials> {
    return this.#call("POST", "/v1/pairing-codes/redeem", DeviceCredentials, { body });
  }

  /** `GET /v1/devices`: the account's devices, their names as the relay keeps them (sealed). */
  listDevices(deviceToken: string): Promise<DeviceList> {
    return this.#call("GET", "/v1/devices", DeviceList, { deviceToken });
  }

  /** `PUT /v1/devices/me/name`: this computer's name, sealed, as the relay lists it from now on. */
  renameDevice(deviceToken: string, name: string): Promise<DeviceRenamed> {
    return this.#call("PUT", "/v1/devices/me/name", DeviceRenamed, { deviceToken, body: { name } });
  }

  /** `GET /v1/key-rotations`: the account's key rotation notices (the new keys sealed under the old ones). */
  keyRotations(deviceToken: string): Promise<KeyRotationList> {
    return this.#call("GET", "/v1/key-rotations", KeyRotationList, { deviceToken });
  }

  /** `POST /v1/pairing-codes`: a 12-digit code another device can join with. */
  /** `GET /v1/fleet`: every computer's latest fleet state, sealed. */
  fleet(deviceToken: string): Promise<RelayedFleet> {
    return this.#call("GET", "/v1/fleet", RelayedFleet, { deviceToken });
  }

  createPairingCode(deviceToken: string): Promise<PairingCodeCreated> {
    return this.#call("POST", "/v1/pairing-codes", PairingCodeCreated, { deviceToken });
  }

  async #call<Schema extends z.ZodType>(
    method: string,
    path: string,
    schema: Schema,
    options: { body?: unknown; deviceToken?: string } = {},
  ): Promise<z.output<Schema>> {
    const headers: Record<string, string> = {};
    if (options.body !== undefined) headers["content-type"] = "application/json";
    if (options.deviceToken) headers.authorization = `Bearer ${options.deviceToken}`;
    let response: Response;
    try {
      response = await this.#fetch(`${this.serverUrl}${path}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        redirect: "manual",
        signal: AbortSignal.timeout(RELAY_API_TIMEOUT_MS),
      });
    } catch (cause) {
      throw new RingbackError(
        "computer_offline",
        `The relay at ${this.serverUrl} did not answer: ${describeCause(cause)}.`,
        { cause },
      );
    }
    const json = await response.json().catch(() => undefined);
    if (response.ok) {
      const parsed = schema.safeParse(json);
      if (parsed.success) return parsed.data;
    }
    const error = ErrorBody.safeParse(json);
    if (error.success && isErrorCode(error.data.error.code)) {
      throw new RingbackError(error.data.error.code, error.data.error.message);
    }
    throw new RingbackError(
      "internal_error",
      `${this.serverUrl} answered ${method} ${path} with ${response.status}: is it a Ringback relay?`,
    );
  }
}

/**
 * Why fetch failed and what to do, in a few words: fetch's own message says only "fetch failed", the reason is in its
 * cause (a system error code, or fetch's refusal of a blocked port).
 */
function describeCause(cause: unknown): string {
  const inner = (cause as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  if (inner?.message === "bad port")
    return 'its port is one browsers and Node.js refuse to connect to (a "bad port" of the Fetch standard): run the relay on another port';
  const reason =
    typeof inner?.code === "string"
      ? inner.code
      : typeof inner?.message === "string"
        ? inner.message
        : cause instanceof Error
          ? cause.message
          : String(cause);
  return `${reason}; is it running at that address?`;
}
