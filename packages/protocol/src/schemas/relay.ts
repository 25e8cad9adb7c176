import { z } from "zod";
import { ERROR_CODES, type ErrorCode } from "../error-codes.js";
import { PAIRING_CODE_DIGITS } from "../limits.js";
import { CallRing } from "./call-rules.js";
import { EventId, ReportSource } from "./report.js";

/*
 * The relay API (v1): every request, response, SSE event and daemon-link message the relay speaks.
 * The daemon's POST bodies (`DaemonEventPost`, `DaemonTrackerReportPost`) live in daemon-relay.ts.
 * Times on the wire are ISO 8601 strings; sealed values are `e2e1.` ciphertext the relay cannot read.
 */

const KIB = 1024;
const MIB = 1024 * KIB;
const SECOND_MS = 1000;

/** `POST /v1/daemon/events` and `/tracker-reports`: a sealed report (0.8 MB plaintext) + brief, base64 and JSON. */
export const RELAY_EVENT_BODY_MAX_BYTES = 1.5 * MIB;
/** `POST /v1/devices/<id>/settings` and a settings result: a sealed daemon request or answer (room for one image). */
export const RELAY_SETTINGS_BODY_MAX_BYTES = 4 * MIB;
/** `POST /v1/calls/<eventId>/replies`: a sealed reply. */
export const RELAY_REPLY_BODY_MAX_BYTES = 256 * KIB;
/** Every other relay request body (accounts, pairing, status). */
export const RELAY_SMALL_BODY_MAX_BYTES = 16 * KIB;
/** The relay sends an SSE comment this often; a client may treat a longer silence as a dead stream. */
export const RELAY_SSE_HEARTBEAT_MS = 15 * SECOND_MS;
/** The relay pings the daemon link this often and drops it when a pong has not come back by the next ping. */
export const RELAY_LINK_PING_MS = 15 * SECOND_MS;
/** How long `POST /v1/devices/<id>/settings` waits for the computer's answer before 504 `computer_timeout`. */
export const RELAY_SETTINGS_TIMEOUT_MS = 30 * SECOND_MS;

/** A client-minted id (reply, settings request): safe in a URL and in associated data. */
export const RelayClientId = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, "must be 1-128 of A-Z a-z 0-9 _ -");
export type RelayClientId = z.infer<typeof RelayClientId>;

/** An `e2e1.` ciphertext; the relay stores and forwards it without reading it. */
export const SealedText = z.string().startsWith("e2e1.");
export type SealedText = z.infer<typeof SealedText>;

// ---------------------------------------------------------------------------------------------------------------
// Accounts, devices, pairing

export const DeviceKind = z.enum(["computer", "browser", "phone"]);
export type DeviceKind = z.infer<typeof DeviceKind>;

/** Characters of a device's name (UTF-16 code units, after trimming). */
export const DEVICE_NAME_MAX_CHARS = 100;

/** A device's name as a person reads it (sealed before it reaches the relay: `RelayDeviceName`). */
export const DeviceName = z.string().trim().min(1).max(DEVICE_NAME_MAX_CHARS);

/**
 * Characters of a sealed device name the relay takes. `@ringback/e2e-crypto`'s `sealDeviceName` pads every name to
 * one length (1426 characters); the bound leaves room for a later padding without letting a name grow to a blob.
 */
export const SEALED_DEVICE_NAME_MAX_CHARS = 2048;

/** A device name sealed by its device (`sealDeviceName`, AAD `ringback/v1/device-name`): `e2e1.<keyId>.<iv>.<data>`. */
export const SealedDeviceName = z
  .string()
  .max(SEALED_DEVICE_NAME_MAX_CHARS)
  .regex(/^e2e1\.[0-9a-f]{16}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22,}$/, "must be a sealed e2e1 string");

/**
 * A device's name as the relay takes it: sealed (what current clients send: the relay cannot read it), or a plaintext
 * `DeviceName` from an older client. The relay stores, lists and copies it as an opaque string.
 */
export const RelayDeviceName = z.union([SealedDeviceName, DeviceName]);

/** Where a relay keeps its data: embedded SQLite (the default) or PostgreSQL (several relay instances). */
export const RelayStoreKind = z.enum(["sqlite", "postgres"]);
export type RelayStoreKind = z.infer<typeof RelayStoreKind>;

/** `GET /v1/health`: the store and the schema version its migrations reached. */
export const RelayHealth = z.object({
  ok: z.literal(true),
  store: RelayStoreKind,
  migrationVersion: z.number().int(),
  /**
   * The data directory's disk (SQLite): its free bytes, and whether they are below the relay's floor, under which it
   * refuses writes that store data (507 `storage_full`). Null where the relay cannot see the disk (PostgreSQL).
   */
  disk: z.object({ freeBytes: z.number().int().nonnegative(), isLow: z.boolean() }).nullable().optional(),
});
export type RelayHealth = z.infer<typeof RelayHealth>;

/**
 * `GET /v1/setup` (no auth). `claimRequired`: no owner yet, the first account needs the claim code printed at the
 * relay's start. Both false: accounts are closed, new devices join an existing account with a pairing code.
 */
export const RelaySetup = z.object({ claimRequired: z.boolean(), openSignup: z.boolean() });
export type RelaySetup = z.infer<typeof RelaySetup>;

/** `POST /v1/accounts`: the first device creates an account. The claim code may be typed with dashes or spaces. */
export const CreateAccountRequest = z.object({
  deviceName: RelayDeviceName,
  deviceKind: DeviceKind,
  claimCode: z.string().max(40).optional(),
});
export type CreateAccountRequest = z.infer<typeof CreateAccountRequest>;

/** A device's identity: `POST /v1/accounts` (201) and `POST /v1/pairing-codes/redeem` (201). */
export const DeviceCredentials = z.object({
  accountId: z.string(),
  deviceId: z.string(),
  /** `Authorization: Bearer <deviceToken>` on every other route; the relay keeps only its hash. */
  deviceToken: z.string(),
});
export type DeviceCredentials = z.infer<typeof DeviceCredentials>;

/**
 * One entry of `GET /v1/devices`. `online`: it holds an SSE stream or a daemon link now. `name` is as the device sent
 * it: sealed (open it with the account's key; one that does not open reads as the device's kind) or, from an older
 * client, plaintext.
 */
export const DeviceInfo = z.object({
  id: z.string(),
  name: z.string(),
  kind: DeviceKind,
  createdAt: z.string(),
  lastSeenAt: z.string().nullable(),
  online: z.boolean(),
  isCurrent: z.boolean(),
});
export type DeviceInfo = z.infer<typeof DeviceInfo>;

export const DeviceList = z.object({ devices: z.array(DeviceInfo) });
export type DeviceList = z.infer<typeof DeviceList>;

/** `PUT /v1/devices/me/name` body: the calling device replaces its own name (sealed, or plaintext from older clients). */
export const RenameDeviceRequest = z.object({ name: RelayDeviceName });
export type RenameDeviceRequest = z.infer<typeof RenameDeviceRequest>;

/** `PUT /v1/devices/me/name` (200): the name the relay now lists for the device, as it was sent. */
export const DeviceRenamed = z.object({ deviceId: z.string(), name: z.string() });
export type DeviceRenamed = z.infer<typeof DeviceRenamed>;

/** `DELETE /v1/devices/<id>` (200). */
export const DeviceRemoved = z.object({ deviceId: z.string(), removed: z.literal(true) });
export type DeviceRemoved = z.infer<typeof DeviceRemoved>;

export const PairingCodeText = z
  .string()
  .regex(new RegExp(`^[0-9]{${PAIRING_CODE_DIGITS}}$`), `must be ${PAIRING_CODE_DIGITS} digits`);

/** `POST /v1/pairing-codes` (201): single use, valid for PAIRING_CODE_TTL_MS. */
export const PairingCodeCreated = z.object({
  code: PairingCodeText,
  expiresAt: z.string(),
  /** The relay's `--public-url` when it has one: the address a new device is to join at (the pairing link's). */
  publicUrl: z.string().optional(),
});
export type PairingCodeCreated = z.infer<typeof PairingCodeCreated>;

/** `POST /v1/pairing-codes/redeem` (no auth): joins the code's account as a new device. */
export const RedeemPairingCodeRequest = z.object({
  code: z.string().max(20),
  deviceName: RelayDeviceName,
  deviceKind: DeviceKind,
});
export type RedeemPairingCodeRequest = z.infer<typeof RedeemPairingCodeRequest>;

// ---------------------------------------------------------------------------------------------------------------
// Events and calls

/** `POST /v1/daemon/events` / `tracker-reports`: 201 for a new event, 200 with the same seq for a repeat. */
export const EventPosted = z.object({ eventId: EventId, seq: z.number().int().positive() });
export type EventPosted = z.infer<typeof EventPosted>;

/** What a client writes back about a call. */
export const CallStatusWrite = z.enum(["answered", "rejected", "acknowledged", "ended"]);
export type CallStatusWrite = z.infer<typeof CallStatusWrite>;

/** Where a call is: `pending` until a device changes it; `expired` is the relay's own (nobody answered in time). */
export const CallStatus = z.enum(["pending", "answered", "rejected", "acknowledged", "ended", "expired"]);
export type CallStatus = z.infer<typeof CallStatus>;

/** The statuses after which the relay has erased report and brief. */
export const FINAL_CALL_STATUSES = ["rejected", "acknowledged", "ended", "expired"] as const;

export function isFinalCallStatus(status: CallStatus): boolean {
  return (FINAL_CALL_STATUSES as readonly string[]).includes(status);
}

/** An event as the relay relays it: SSE `call` data and `GET /v1/calls/<eventId>`. */
export const RelayedEvent = z.object({
  seq: z.number().int().positive(),
  eventId: EventId,
  source: ReportSource,
  occurredAt: z.string(),
  receivedAt: z.string(),
  taskId: z.string().nullable(),
  /** The computer that posted it; replies go back to it. */
  fromDeviceId: z.string(),
  /** The sealed report and brief (AAD `ringback/v1/report/<eventId>`). */
  sealed: SealedText,
  status: CallStatus,
  /** `quiet`: listed, not rung (see `CallRing`); absent from older relays, which ring every call. */
  ring: CallRing.optional(),
});
export type RelayedEvent = z.infer<typeof RelayedEvent>;

/** `POST /v1/calls/<eventId>/status` body. */
export const CallStatusRequest = z.object({ status: CallStatusWrite });
export type CallStatusRequest = z.infer<typeof CallStatusRequest>;

/**
 * `POST /v1/calls/<eventId>/status` (200). `status` is the call's status now; `won` is true when it is this
 * device's write (first answer, or a repeat of it), false when the call had already ended another way.
 */
export const CallStatusResult = z.object({ eventId: EventId, status: CallStatus, won: z.boolean() });
export type CallStatusResult = z.infer<typeof CallStatusResult>;

/** SSE `call-status` data: a call changed status. `deviceId` is null for `expired`. */
export const CallStatusChange = z.object({
  seq: z.number().int().positive(),
  eventId: EventId,
  status: CallStatus.exclude(["pending"]),
  deviceId: z.string().nullable(),
  at: z.string(),
});
export type CallStatusChange = z.infer<typeof CallStatusChange>;

// ---------------------------------------------------------------------------------------------------------------
// Delivery outcomes: how far a call got on each device

/**
 * One step of a call on one device: `pushed` (a push service took the relay's push for it; the relay records this
 * itself), `shown` (the device rang it: the ringing screen or a notification), `opened` (the person opened it: a
 * notification clicked, or the call screen opened). Answering is the call's own status (`CallStatusChange`).
 */
export const DeliveryOutcome = z.enum(["pushed", "shown", "opened"]);
export type DeliveryOutcome = z.infer<typeof DeliveryOutcome>;

/** The outcomes a device reports about itself; `pushed` is the relay's alone. */
export const DeviceDeliveryOutcome = DeliveryOutcome.exclude(["pushed"]);
export type DeviceDeliveryOutcome = z.infer<typeof DeviceDeliveryOutcome>;

/** `POST /v1/calls/<eventId>/deliveries` body: the reporting device's outcome; the relay stamps device and time. */
export const DeliveryReport = z.object({ outcome: DeviceDeliveryOutcome });
export type DeliveryReport = z.infer<typeof DeliveryReport>;

/**
 * SSE `call-delivery` data, and `POST /v1/calls/<eventId>/deliveries` (200) answer. Each (call, device, outcome) is
 * recorded once, at its first time: a repeat answers the recorded one and sends nothing new. `deviceName` is the
 * device's name when the outcome was recorded, as the relay lists it (`DeviceInfo.name`: sealed, or plaintext from an
 * older client); `deviceKind` is the device's kind, what a reader shows when the name does not open (absent from
 * older relays).
 */
export const CallDelivery = z.object({
  seq: z.number().int().positive(),
  eventId: EventId,
  deviceId: z.string(),
  deviceName: z.string(),
  deviceKind: DeviceKind.optional(),
  outcome: DeliveryOutcome,
  at: z.string(),
});
export type CallDelivery = z.infer<typeof CallDelivery>;

// ---------------------------------------------------------------------------------------------------------------
// Replies

export const ReplyStatus = z.enum(["queued", "delivered", "failed"]);
export type ReplyStatus = z.infer<typeof ReplyStatus>;

/** Plaintext failure reasons carry no content: the relay's own ("expired") or "cannot decrypt reply". */
export const PlaintextReason = z.string().min(1).max(200);

/**
 * `POST /v1/calls/<eventId>/replies` body: a sealed `ReplyPlaintext`, AAD `ringback/v2/reply/<computerId>/<eventId>`
 * (the event's `fromDeviceId`). Idempotent on replyId.
 */
export const ReplyRequest = z.object({ replyId: RelayClientId, sealed: SealedText });
export type ReplyRequest = z.infer<typeof ReplyRequest>;

/** `POST /v1/calls/<eventId>/replies` (202): the reply's status now. */
export const ReplyAccepted = z.object({ replyId: RelayClientId, eventId: EventId, status: ReplyStatus });
export type ReplyAccepted = z.infer<typeof ReplyAccepted>;

/** SSE `reply-status` data. `sealedReason` is sealed with AAD `ringback/v1/reply-error/<replyId>`. */
export const ReplyStatusChange = z.object({
  seq: z.number().int().positive(),
  eventId: EventId,
  replyId: RelayClientId,
  status: ReplyStatus,
  sealedReason: SealedText.nullable(),
  plaintextReason: PlaintextReason.nullable(),
  at: z.string(),
});
export type ReplyStatusChange = z.infer<typeof ReplyStatusChange>;

/** The plaintext reason of a reply the daemon did not pick up within REPLY_EXPIRY_MS. */
export const REPLY_EXPIRED_REASON = "expired";
/** The plaintext reason of a reply whose computer was removed before it was delivered. */
export const REPLY_COMPUTER_REMOVED_REASON = "computer removed";

// ---------------------------------------------------------------------------------------------------------------
// The SSE stream, `GET /v1/stream`

/** SSE event names. Every event with an `id:` line carries the account's sequence number. */
export const RELAY_SSE_EVENTS = {
  call: "call",
  callStatus: "call-status",
  /** A call's delivery outcome on one device (`CallDelivery`). */
  callDelivery: "call-delivery",
  replyStatus: "reply-status",
  /** The backlog has been sent; `id` is the account's latest seq (no `id` is ever skipped by a resume). */
  synced: "synced",
  /** Sent to a removed device just before its stream closes; it then gets 401 `device_removed`. */
  deviceRemoved: "device-removed",
  /** A computer's sealed fleet state (`RelayedFleetState`), no `id`; every current one follows `synced` on connect. */
  fleet: "fleet",
} as const;
export type RelaySseEventName = (typeof RELAY_SSE_EVENTS)[keyof typeof RELAY_SSE_EVENTS];

/** SSE `synced` data. */
export const StreamSynced = z.object({ seq: z.number().int().nonnegative() });
export type StreamSynced = z.infer<typeof StreamSynced>;

/** SSE `device-removed` data. */
export const StreamDeviceRemoved = z.object({ deviceId: z.string() });
export type StreamDeviceRemoved = z.infer<typeof StreamDeviceRemoved>;

// ---------------------------------------------------------------------------------------------------------------
// Settings relay

/**
 * `POST /v1/devices/<deviceId>/settings` body: a sealed `StampedSettingsRequest` (`{method, path, body, sentAt,
 * nonce}`), AAD `ringback/v2/settings-request/<deviceId>/<requestId>`.
 */
export const SettingsRelayRequest = z.object({ requestId: RelayClientId, sealed: SealedText });
export type SettingsRelayRequest = z.infer<typeof SettingsRelayRequest>;

/** `POST /v1/devices/<deviceId>/settings` (200): the daemon's sealed answer, AAD `ringback/v1/settings-result/<requestId>`. */
export const SettingsRelayResult = z.object({ requestId: RelayClientId, sealed: SealedText });
export type SettingsRelayResult = z.infer<typeof SettingsRelayResult>;

// ---------------------------------------------------------------------------------------------------------------
// The daemon link, WebSocket `GET /v1/daemon/link` (Authorization: Bearer on the upgrade). JSON text messages.

/**
 * Relay -> daemon: a relayed settings request. `senderDeviceId` is the id of the device whose token sent it, stamped
 * by the relay (absent from an older relay): what the request does for "this device" is done for that one.
 */
export const LinkSettingsRequest = z.object({
  type: z.literal("settings-request"),
  requestId: RelayClientId,
  sealed: SealedText,
  senderDeviceId: RelayClientId.optional(),
});
/** Relay -> daemon: a reply to resume an agent; sent again after every reconnect until the daemon settles it. */
export const LinkReply = z.object({
  type: z.literal("reply"),
  replyId: RelayClientId,
  eventId: EventId,
  sealed: SealedText,
});
export const RelayToDaemonMessage = z.discriminatedUnion("type", [LinkSettingsRequest, LinkReply]);
export type RelayToDaemonMessage = z.infer<typeof RelayToDaemonMessage>;

/** Daemon -> relay: the sealed answer to a settings request. */
export const LinkSettingsResult = z.object({
  type: z.literal("settings-result"),
  requestId: RelayClientId,
  sealed: SealedText,
});
/**
 * Daemon -> relay: a plaintext refusal (400 `undecryptable_request`, 403 `not_relayed`, 409 `replayed_request`, 422
 * `stale_request`); the relay answers with it.
 */
export const LinkSettingsError = z.object({
  type: z.literal("settings-error"),
  requestId: RelayClientId,
  error: z.object({ code: z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]), message: z.string().max(500) }),
});
/** Daemon -> relay: how a reply ended. A failure carries a sealed reason or, when it could not be opened, a plaintext one. */
export const LinkReplyStatus = z
  .object({
    type: z.literal("reply-status"),
    replyId: RelayClientId,
    status: z.enum(["delivered", "failed"]),
    sealedReason: SealedText.optional(),
    plaintextReason: PlaintextReason.optional(),
  })
  .refine((message) => !(message.sealedReason !== undefined && message.plaintextReason !== undefined), {
    message: "a reply status carries at most one reason",
  });
export const DaemonToRelayMessage = z.union([LinkSettingsResult, LinkSettingsError, LinkReplyStatus]);
export type DaemonToRelayMessage = z.infer<typeof DaemonToRelayMessage>;

/** WebSocket close codes the relay uses on the daemon link. */
export const LINK_CLOSE_CODES = {
  /** Another link of the same device replaced this one. */
  replaced: 4000,
  /** The device was removed; its token now gets 401. */
  deviceRemoved: 4001,
  /** The relay is shutting down. */
  shuttingDown: 1001,
} as const;
