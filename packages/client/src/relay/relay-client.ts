import {
  type CallDelivery,
  CallDelivery as CallDeliverySchema,
  type CallStatusResult,
  CallStatusResult as CallStatusResultSchema,
  type CallStatusWrite,
  type CreateAccountRequest,
  type DeviceCredentials,
  DeviceCredentials as DeviceCredentialsSchema,
  type DeviceDeliveryOutcome,
  type DeviceList,
  DeviceList as DeviceListSchema,
  type DeviceRemoved,
  DeviceRemoved as DeviceRemovedSchema,
  type DeviceRenamed,
  DeviceRenamed as DeviceRenamedSchema,
  type KeyRotationList,
  KeyRotationList as KeyRotationListSchema,
  type KeyRotationNotice,
  type KeyRotationPosted,
  KeyRotationPosted as KeyRotationPostedSchema,
  type PairingCodeCreated,
  PairingCodeCreated as PairingCodeCreatedSchema,
  type RedeemPairingCodeRequest,
  type RelayedEvent,
  RelayedEvent as RelayedEventSchema,
  type RelayedFleet,
  RelayedFleet as RelayedFleetSchema,
  type RelaySetup,
  RelaySetup as RelaySetupSchema,
  type ReplyAccepted,
  ReplyAccepted as ReplyAcceptedSchema,
  type ReplyRequest,
  type SettingsRelayRequest,
  type SettingsRelayResult,
  SettingsRelayResult as SettingsRelayResultSchema,
} from "@ringback/protocol";
import type { ZodType } from "zod";
import { type RelayConnection, relayConnection, requestRelay } from "./relay-request.js";

export interface RelayClientOptions {
  /** The relay's base address, without `/v1`. */
  readonly serverUrl: string;
  /** Sent as `Authorization: Bearer`; absent before the device has joined an account. */
  readonly deviceToken?: string;
  readonly fetch?: typeof fetch;
}

/** The relay's REST routes (v1) that the web app uses. Every answer is checked against the protocol schema. */
export class RelayClient {
  readonly serverUrl: string;
  readonly #connection: RelayConnection;

  constructor(options: RelayClientOptions) {
    this.#connection = relayConnection(options);
    this.serverUrl = this.#connection.serverUrl;
  }

  /** `GET /v1/setup`: whether creating an account needs the claim code. */
  setup(): Promise<RelaySetup> {
    return this.#request("GET", "/v1/setup", RelaySetupSchema);
  }

  /** `POST /v1/accounts`: this device creates an account. */
  createAccount(request: CreateAccountRequest): Promise<DeviceCredentials> {
    return this.#request("POST", "/v1/accounts", DeviceCredentialsSchema, request);
  }

  /** `POST /v1/pairing-codes/redeem`: this device joins the account of a pairing code. */
  redeemPairingCode(request: RedeemPairingCodeRequest): Promise<DeviceCredentials> {
    return this.#request("POST", "/v1/pairing-codes/redeem", DeviceCredentialsSchema, request);
  }

  /** `POST /v1/pairing-codes`: a code for adding another device. */
  createPairingCode(): Promise<PairingCodeCreated> {
    return this.#request("POST", "/v1/pairing-codes", PairingCodeCreatedSchema, {});
  }

  /** `GET /v1/devices`. */
  listDevices(): Promise<DeviceList> {
    return this.#request("GET", "/v1/devices", DeviceListSchema);
  }

  /**
   * `PUT /v1/devices/me/name`: this device's name as the relay lists it from now on, sealed (`sealDeviceName`); the
   * relay keeps it as an opaque string.
   */
  renameDevice(name: string): Promise<DeviceRenamed> {
    return this.#request("PUT", "/v1/devices/me/name", DeviceRenamedSchema, { name });
  }

  /** `DELETE /v1/devices/<id>`: the removed device's token gets 401 from then on. */
  removeDevice(deviceId: string): Promise<DeviceRemoved> {
    return this.#request("DELETE", `/v1/devices/${encodeURIComponent(deviceId)}`, DeviceRemovedSchema);
  }

  /** `GET /v1/key-rotations`: the account's key rotation notices, oldest first (a removed device gets 401). */
  keyRotations(): Promise<KeyRotationList> {
    return this.#request("GET", "/v1/key-rotations", KeyRotationListSchema);
  }

  /**
   * `POST /v1/key-rotations`: a new account key sealed under the one it replaces, kept for every device and computer
   * of the account. 409 `key_rotation_conflict` when another device rotated from the same key first.
   */
  postKeyRotation(notice: KeyRotationNotice): Promise<KeyRotationPosted> {
    return this.#request("POST", "/v1/key-rotations", KeyRotationPostedSchema, notice);
  }

  /** `GET /v1/fleet`: every computer's latest sealed fleet state, as the stream relays each (`onFleet`). */
  fleet(): Promise<RelayedFleet> {
    return this.#request("GET", "/v1/fleet", RelayedFleetSchema);
  }

  /** `GET /v1/calls/<eventId>`: one event, as the stream would relay it. */
  getCall(eventId: string): Promise<RelayedEvent> {
    return this.#request("GET", `/v1/calls/${encodeURIComponent(eventId)}`, RelayedEventSchema);
  }

  /**
   * `POST /v1/calls/<eventId>/status`. The first answer wins: a later answer gets 409 `call_already_answered`,
   * and a write to a call that already ended another way gets `won: false`.
   */
  writeCallStatus(eventId: string, status: CallStatusWrite): Promise<CallStatusResult> {
    return this.#request("POST", `/v1/calls/${encodeURIComponent(eventId)}/status`, CallStatusResultSchema, {
      status,
    });
  }

  /**
   * `POST /v1/calls/<eventId>/deliveries`: how far the call got on this device (shown, opened). Recorded once per
   * outcome; a repeat answers the first record.
   */
  reportDelivery(eventId: string, outcome: DeviceDeliveryOutcome): Promise<CallDelivery> {
    return this.#request("POST", `/v1/calls/${encodeURIComponent(eventId)}/deliveries`, CallDeliverySchema, {
      outcome,
    });
  }

  /** `POST /v1/calls/<eventId>/replies`: a sealed reply for the computer that reported the call (idempotent on replyId). */
  sendReply(eventId: string, request: ReplyRequest): Promise<ReplyAccepted> {
    return this.#request(
      "POST",
      `/v1/calls/${encodeURIComponent(eventId)}/replies`,
      ReplyAcceptedSchema,
      request,
    );
  }

  /** `POST /v1/devices/<computerId>/settings`: a sealed daemon request, answered by the computer's sealed result. */
  relaySettings(computerId: string, request: SettingsRelayRequest): Promise<SettingsRelayResult> {
    return this.#request(
      "POST",
      `/v1/devices/${encodeURIComponent(computerId)}/settings`,
      SettingsRelayResultSchema,
      request,
    );
  }

  #request<T>(method: string, path: string, schema: ZodType<T>, body?: unknown): Promise<T> {
    return requestRelay(this.#connection, method, path, schema, body);
  }
}
