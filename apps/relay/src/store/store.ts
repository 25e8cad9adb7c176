import type {
  CallDelivery,
  CallRing,
  CallStatus,
  CallStatusChange,
  CallStatusWrite,
  DeliveryOutcome,
  DeviceKind,
  RelayedEvent,
  RelayStoreKind,
  ReplyStatus,
  ReplyStatusChange,
  ReportSource,
} from "@ringback/protocol";

/*
 * Everything the relay keeps, behind one interface so a second implementation (PostgreSQL) can replace SQLite
 * and pass the same contract suite (test/store-contract/store-contract-suite.ts). The business rules that must hold
 * across several relay processes (first answer wins, idempotent events and replies, one call per tracker task,
 * per-account sequence numbers, pairing codes used once, rate-limit counters) are each one atomic operation here,
 * never kept in memory.
 * Times are epoch milliseconds; the routes turn them into ISO strings.
 */

/** Calls (or replies) expired in one sweep transaction; the rest wait for the next sweep, so none holds locks long. */
export const EXPIRY_BATCH_MAX = 500;

export interface DeviceRecord {
  readonly id: string;
  readonly accountId: string;
  readonly name: string;
  readonly kind: DeviceKind;
  readonly createdAt: number;
  readonly lastSeenAt: number | null;
}

/** A device about to be created: its token is already hashed by the caller. */
export interface NewDevice {
  readonly id: string;
  readonly name: string;
  readonly kind: DeviceKind;
  readonly tokenHash: string;
}

/** One entry of an account's stream, in sequence order: what SSE sends, with `seq` as its id. */
export type StreamEntry =
  | { readonly kind: "call"; readonly accountId: string; readonly seq: number; readonly event: RelayedEvent }
  | {
      readonly kind: "call-status";
      readonly accountId: string;
      readonly seq: number;
      readonly change: CallStatusChange;
    }
  | {
      readonly kind: "call-delivery";
      readonly accountId: string;
      readonly seq: number;
      readonly delivery: CallDelivery;
    }
  | {
      readonly kind: "reply-status";
      readonly accountId: string;
      readonly seq: number;
      readonly change: ReplyStatusChange;
    };

/** The entries to send a connecting device, and the account's latest seq when they were read. */
export interface StreamSnapshot {
  readonly entries: readonly StreamEntry[];
  readonly headSeq: number;
}

/**
 * A page of an account's stream, read in one snapshot: its entries in seq order, and how far it reaches. Every entry
 * after the page's start up to `throughSeq` is in it (or left out on purpose, as an erased call is), so the next page
 * reads after `throughSeq`; the last page reaches the account's latest seq, `headSeq`, when it was read.
 */
export interface StreamPage {
  readonly entries: readonly StreamEntry[];
  readonly throughSeq: number;
  readonly headSeq: number;
}

export interface NewEvent {
  readonly accountId: string;
  readonly eventId: string;
  readonly source: ReportSource;
  readonly occurredAt: string;
  readonly taskId: string | null;
  readonly fromDeviceId: string;
  readonly sealed: string;
  /** `quiet`: kept and streamed, never pushed (until its computer asks, `pushCallAgain`); absent: `ring`. */
  readonly ring?: CallRing;
  readonly receivedAt: number;
  /** When an unanswered call expires and is erased. */
  readonly expiresAt: number;
  /** What the account may hold (its quota), checked in the insert's transaction. */
  readonly limits: EventLimits;
  /**
   * The rate-limit window a stored event counts in (its computer's reports): hit in the insert's transaction, so the
   * event and its count are one commit (one fsync before the call rings, not two). Not hit for a repeat or a refusal.
   */
  readonly countsIn?: RateWindow;
}

/** A fixed rate-limit window a write counts in (as `rateLimitHit`). */
interface RateWindow {
  readonly key: string;
  readonly windowMs: number;
}

/** An account's quota for a new call: its open calls, and the bytes of its open calls' and queued replies' ciphertext. */
export interface EventLimits {
  readonly openCallsMax: number;
  readonly sealedBytesMax: number;
}

export type AppendEventResult =
  | { readonly kind: "created"; readonly entry: StreamEntry & { kind: "call" } }
  /** The same device posted this event id before: the same seq, nothing new on the stream. */
  | { readonly kind: "repeat"; readonly seq: number }
  /** Another device posted this event id, or this tracker task under another event id. */
  | { readonly kind: "duplicate_task" }
  /** The account's quota (`limits`) has no room for it: nothing stored. */
  | { readonly kind: "full"; readonly usage: AccountUsage };

export interface CallStatusInput {
  readonly accountId: string;
  readonly eventId: string;
  readonly deviceId: string;
  readonly status: CallStatusWrite;
  readonly now: number;
  /** When an answered call that never reports "ended" expires and is erased. */
  readonly answeredExpiresAt: number;
}

export type CallStatusOutcome =
  /** This write changed the call; the entry goes on the stream. */
  | {
      readonly kind: "changed";
      readonly status: CallStatus;
      readonly entry: StreamEntry & { kind: "call-status" };
    }
  /** The call already holds this device's write (a repeat): nothing changes. */
  | { readonly kind: "repeat"; readonly status: CallStatus }
  /** Another device answered first (or holds the answered call); this device's call ends. */
  | { readonly kind: "already_answered"; readonly status: CallStatus }
  /** The call had already ended another way; a closing write from this device changes nothing. */
  | { readonly kind: "already_ended"; readonly status: CallStatus }
  | { readonly kind: "not_found" };

/** How far a call got on one device, at `now`; the device's name is read from the store as it is now. */
export interface NewDelivery {
  readonly accountId: string;
  readonly eventId: string;
  readonly deviceId: string;
  readonly outcome: DeliveryOutcome;
  readonly now: number;
}

export type RecordDeliveryOutcome =
  /** The first record of this outcome for this call and device: the entry goes on the stream. */
  | { readonly kind: "created"; readonly entry: StreamEntry & { kind: "call-delivery" } }
  /** Already recorded: the first record, unchanged (no new seq). */
  | { readonly kind: "repeat"; readonly delivery: CallDelivery }
  /** No such call in the account (or the device is not the account's). */
  | { readonly kind: "not_found" };

export interface NewReply {
  readonly accountId: string;
  readonly eventId: string;
  readonly replyId: string;
  readonly fromDeviceId: string;
  readonly sealed: string;
  readonly now: number;
  readonly expiresAt: number;
  readonly limits: ReplyLimits;
}

/** What an account may hold in queued replies: checked in the enqueue's own transaction. */
interface ReplyLimits {
  /** Replies queued at once (not yet delivered, failed or expired). */
  readonly queuedMax: number;
  /** The ciphertext the account holds, its open calls' and its queued replies' together, this reply's included. */
  readonly sealedBytesMax: number;
}

export type EnqueueReplyOutcome =
  /** Queued for `toDeviceId` (the computer that posted the event), or failed at once when it was removed. */
  | {
      readonly kind: "created";
      readonly toDeviceId: string;
      readonly status: ReplyStatus;
      readonly entries: readonly (StreamEntry & { kind: "reply-status" })[];
    }
  | { readonly kind: "repeat"; readonly toDeviceId: string; readonly status: ReplyStatus }
  /** The account's queued replies or its sealed bytes would pass its limits: nothing was stored. */
  | { readonly kind: "full"; readonly usage: AccountUsage }
  /** The reply id is already used for another event of the account. */
  | { readonly kind: "conflict" }
  | { readonly kind: "not_found" };

/** A reply waiting for its computer's daemon. */
export interface QueuedReply {
  readonly replyId: string;
  readonly eventId: string;
  readonly sealed: string;
}

export interface SettleReplyInput {
  /** The computer settling it; a reply queued for another device is left alone. */
  readonly deviceId: string;
  readonly replyId: string;
  readonly status: "delivered" | "failed";
  readonly sealedReason: string | null;
  readonly plaintextReason: string | null;
  readonly now: number;
}

/** The relay's VAPID key pair (RFC 8292), base64url: the public key as an uncompressed P-256 point. */
export interface VapidKeys {
  readonly publicKey: string;
  readonly privateKey: string;
}

/** What an account holds now: the ciphertext of its open calls and queued replies, which its quotas bound. */
export interface AccountUsage {
  /** Calls that still hold ciphertext (ringing or answered). */
  readonly openCalls: number;
  /** Replies waiting for their computer. */
  readonly queuedReplies: number;
  /** The bytes of both's ciphertext. */
  readonly sealedBytes: number;
}

/** What an account may hold: checked when a device joins it. */
export interface AccountDeviceLimits {
  readonly devicesMax: number;
  readonly pairingsMax: number;
  readonly pairingWindowMs: number;
}

export type RedeemOutcome =
  | { readonly kind: "joined"; readonly accountId: string }
  | { readonly kind: "invalid" }
  /** The account has `devicesMax` live devices. */
  | { readonly kind: "devices-full"; readonly accountId: string }
  /** `pairingsMax` devices joined within the window; `retryAt`: when the oldest of them leaves it. */
  | { readonly kind: "pairings-full"; readonly accountId: string; readonly retryAt: number };

/** A device's Web Push subscription: the push service's endpoint and the browser's keys. */
export interface PushSubscriptionRecord {
  readonly deviceId: string;
  readonly accountId: string;
  readonly endpoint: string;
  readonly p256dh: string;
  readonly auth: string;
  readonly repeatSeconds: number;
  readonly updatedAt: number;
}

/** Identifies one call's pushes to one device. */
export interface PushKey {
  readonly accountId: string;
  readonly eventId: string;
  readonly deviceId: string;
}

/** A push due now, claimed: the call's routing plaintext and the subscription to push it to. */
export interface DuePush extends PushKey {
  readonly subscription: PushSubscriptionRecord;
  readonly seq: number;
  readonly source: ReportSource;
  readonly occurredAt: string;
  readonly receivedAt: number;
  readonly taskId: string | null;
  readonly fromDeviceId: string;
  /** When the call can no longer be answered. */
  readonly expiresAt: number;
  /** Pushes of this call to this device so far, this one included. */
  readonly attempt: number;
  /** Failed tries (429, 5xx, network) in a row before this one. */
  readonly failures: number;
  /** The sealed call when it could fit in a push (`PUSH_PAYLOAD_MAX_BYTES` characters at most); null when longer. */
  readonly sealed: string | null;
}

/** What became of a claimed push. */
export type PushSettlement =
  /** Accepted by the push service: the next push is the repeat already scheduled by the claim. */
  | { readonly kind: "sent" }
  /** Try again at `at` (the push service was busy or failing). */
  | { readonly kind: "retry"; readonly at: number }
  /** Never push this call to this device again. */
  | { readonly kind: "drop" };

/**
 * How long a claim keeps the pushes of a call that just stopped ringing for `takeSettledPushes`, which the instance
 * that committed the change runs right after it: a claim in between must not forget whom to tell.
 */
export const SETTLED_PUSH_TAKE_WAIT_MS = 60_000;

/** Pushes claimed in one go; the rest wait for the next round. */
export const PUSH_CLAIM_BATCH_MAX = 500;
/**
 * Pushes of one account claimed in one go, taken account by account in turn (each account's earliest first, then
 * each one's next, ...): an account with thousands of pushes due never fills a round while another's wait.
 */
export const PUSH_CLAIM_PER_ACCOUNT_MAX = 16;

/** A key rotation notice as the relay keeps it: opaque (the new key sealed under the old), per account. */
export interface KeyRotationRecord {
  readonly rotationId: string;
  readonly sealed: string;
  readonly createdAt: number;
}

/** A notice a device posts; `fromKeyId` is the old key's id, as its sealed text names it. */
export interface NewKeyRotation {
  readonly accountId: string;
  readonly rotationId: string;
  readonly fromKeyId: string;
  /** The device posting it: its notices go when it is removed. */
  readonly postedBy: string;
  readonly sealed: string;
  readonly now: number;
  /** The notices the account keeps: the oldest beyond it go. */
  readonly keptMax: number;
}

export type AddKeyRotationOutcome =
  | { readonly kind: "created"; readonly record: KeyRotationRecord }
  /** The same notice again (same id, same sealed text): the record as first kept. */
  | { readonly kind: "repeat"; readonly record: KeyRotationRecord }
  /** The account already has a notice from this key (another device rotated first), or this id for another one. */
  | { readonly kind: "conflict" };

/** A computer's latest fleet state as the relay keeps it: opaque (sealed and padded by the computer). */
export interface FleetStateRecord {
  readonly computerId: string;
  readonly sealed: string;
  readonly receivedAt: number;
}

/** A computer's new fleet state; it replaces the last one only when that one is `minIntervalMs` old or older. */
export interface NewFleetState {
  readonly accountId: string;
  readonly computerId: string;
  readonly sealed: string;
  readonly now: number;
  readonly minIntervalMs: number;
}

export type PutFleetStateOutcome =
  | { readonly kind: "stored"; readonly record: FleetStateRecord }
  /** The computer's last state is younger than the interval: nothing changed; another may replace it from `retryAt`. */
  | { readonly kind: "too-soon"; readonly retryAt: number };

export interface RateLimitState {
  readonly count: number;
  readonly resetAt: number;
}

/** A new account with its first device. */
export interface NewAccount {
  readonly device: NewDevice;
  readonly accountId: string;
  readonly now: number;
}

/** The owner's claim of a fresh relay: the first account, if the claim code's hash matches. */
export interface RelayClaim extends NewAccount {
  readonly claimCodeHash: string;
}

type ClaimOutcome = "claimed" | "invalid_claim_code" | "already_claimed";

export interface DeviceRename {
  readonly accountId: string;
  readonly deviceId: string;
  readonly name: string;
}

export interface DeviceRemoval {
  readonly accountId: string;
  readonly deviceId: string;
  readonly now: number;
}

export interface NewPairingCode {
  readonly codeHash: string;
  readonly accountId: string;
  readonly createdBy: string;
  readonly expiresAt: number;
  readonly now: number;
}

export interface PairingRedemption {
  readonly codeHash: string;
  readonly device: NewDevice;
  readonly now: number;
  readonly limits: AccountDeviceLimits;
}

export interface RelayStore {
  /** Shown by `GET /v1/health`. */
  readonly kind: RelayStoreKind;
  migrationVersion(): Promise<number>;
  close(): Promise<void>;

  // Owner and accounts.
  hasAccounts(): Promise<boolean>;
  /** Replaces the one-time claim code (its hash); null removes it. */
  setClaimCodeHash(codeHash: string | null): Promise<void>;
  /** Creates the first account when the claim code matches and no account exists yet; the code is used up. */
  claimRelay(input: RelayClaim): Promise<ClaimOutcome>;
  createAccount(input: NewAccount): Promise<void>;

  // Devices.
  /** A device that has not been removed, by the hash of its token. */
  findDeviceByTokenHash(tokenHash: string): Promise<DeviceRecord | null>;
  /** Records activity, writing at most once per `minIntervalMs` per device. */
  touchDevice(deviceId: string, now: number, minIntervalMs: number): Promise<void>;
  findDevice(accountId: string, deviceId: string): Promise<DeviceRecord | null>;
  /** The account's devices in the order they joined. */
  listDevices(accountId: string): Promise<DeviceRecord[]>;
  /** Replaces a live device's name (an opaque string: sealed by the device); false when there is no such device. */
  renameDevice(input: DeviceRename): Promise<boolean>;
  /**
   * Removes a device for good (its token is refused forever); its undelivered replies fail, its fleet state and the
   * key rotation notices it posted go (a device about to be removed cannot hold the slot of the rotation that removes it).
   */
  removeDevice(input: DeviceRemoval): Promise<{
    removed: boolean;
    entries: readonly StreamEntry[];
  }>;

  // Pairing codes.
  /**
   * False when a live code has the same hash (the caller draws another). Expired codes, and the creating device's
   * earlier code (one live code per device), are dropped first.
   */
  createPairingCode(input: NewPairingCode): Promise<boolean>;
  /**
   * Uses up a live code and adds the device to its account, unless the account already has `devicesMax` live
   * devices or `pairingsMax` devices joined it within `pairingWindowMs` (then nothing changes and the code stays
   * live), checked in the same transaction as the insert, so concurrent redemptions cannot overshoot. `invalid` when
   * the code is wrong, used or expired. A wrong code changes nothing: no guess, however many, can spend or burn
   * anyone's code (the guessers' addresses are limited instead, and the code's length makes a hit hopeless).
   */
  redeemPairingCode(input: PairingRedemption): Promise<RedeemOutcome>;

  // Key rotations.
  /**
   * Keeps a rotation notice for the account: at most one per old key (the first wins, checked in the insert's
   * transaction, so two devices rotating at once cannot fork the account's key), and the `keptMax` newest.
   */
  addKeyRotation(input: NewKeyRotation): Promise<AddKeyRotationOutcome>;
  /** The account's notices, oldest first. */
  keyRotations(accountId: string): Promise<KeyRotationRecord[]>;

  // Fleet states.
  /**
   * Keeps a computer's latest fleet state: at most one per `minIntervalMs` per computer, checked and written in one
   * statement, so it holds across relay processes.
   */
  putFleetState(input: NewFleetState): Promise<PutFleetStateOutcome>;
  /** The latest state of each live computer of the account. */
  fleetStates(accountId: string): Promise<FleetStateRecord[]>;
  /** One computer's latest state, while the computer is live. */
  fleetState(accountId: string, computerId: string): Promise<FleetStateRecord | null>;

  // Rate limits (fixed windows, shared by every relay process).
  rateLimitState(key: string, now: number): Promise<RateLimitState>;
  rateLimitHit(key: string, now: number, windowMs: number): Promise<RateLimitState>;

  // Events and calls.
  /**
   * Stores a call once: a repeat from the same computer is answered as one whatever the quota; otherwise the
   * account's quota (`input.limits`) is checked in the same transaction as the insert, so concurrent reports
   * cannot overshoot it (`full`, nothing stored).
   */
  appendEvent(input: NewEvent): Promise<AppendEventResult>;
  /** What the account holds now: its calls that still have ciphertext, its queued replies, and both's bytes. */
  accountUsage(accountId: string): Promise<AccountUsage>;
  /** The call while its ciphertext exists. */
  getCall(accountId: string, eventId: string): Promise<RelayedEvent | null>;
  setCallStatus(input: CallStatusInput): Promise<CallStatusOutcome>;
  /** Every entry after `afterSeq`; calls whose ciphertext was erased are left out (their status change is in). */
  streamSince(accountId: string, afterSeq: number): Promise<StreamSnapshot>;
  /** Every call not yet ended or expired, as `call` entries, with their `call-delivery` entries, in seq order. */
  pendingCalls(accountId: string): Promise<StreamSnapshot>;
  /**
   * `streamSince` a page at a time: at most `limit` entries after `afterSeq`, and with `maxBytes` only as many calls as
   * keep their sealed bytes within it (but always the first).
   */
  streamPage(accountId: string, afterSeq: number, limit: number, maxBytes?: number): Promise<StreamPage>;
  /** `pendingCalls` a page at a time, bounded the same way. */
  pendingCallsPage(
    accountId: string,
    afterSeq: number,
    limit: number,
    maxBytes?: number,
  ): Promise<StreamPage>;

  // Delivery outcomes.
  /**
   * Records how far a call (open or ended, while its row is kept) got on a device: once per (call, device,
   * outcome), at its first time, with the account's next seq. A unique constraint decides between processes.
   * The records go when the call's row is pruned.
   */
  recordDelivery(input: NewDelivery): Promise<RecordDeliveryOutcome>;

  // Replies.
  /**
   * Queues a reply for the computer that posted the event, unless the account already has `limits.queuedMax`
   * replies queued or its ciphertext (open calls' and queued replies') would pass `limits.sealedBytesMax` (then
   * `full` and nothing is stored), checked in the same transaction as the insert, so concurrent replies cannot
   * overshoot. A repeat is answered as one whatever the quota; a reply to a removed computer stores nothing (it
   * fails at once) and is not held to it.
   */
  enqueueReply(input: NewReply): Promise<EnqueueReplyOutcome>;
  queuedReplies(deviceId: string): Promise<QueuedReply[]>;
  /** Null when the reply is unknown, not for this device, or already settled. */
  settleReply(input: SettleReplyInput): Promise<(StreamEntry & { kind: "reply-status" }) | null>;

  // Web Push.
  /** The relay's VAPID key pair; `candidate` is stored first when there is none yet (the first start). */
  vapidKeys(candidate: VapidKeys): Promise<VapidKeys>;
  /** Registers or replaces the device's subscription; calls already ringing are not pushed to it. */
  setPushSubscription(input: Omit<PushSubscriptionRecord, "updatedAt"> & { now: number }): Promise<void>;
  findPushSubscription(deviceId: string): Promise<PushSubscriptionRecord | null>;
  /**
   * Removes the device's subscription and its pending pushes. With `endpoint`, only when it is still that one
   * (a push service's 410 for an old endpoint must not remove the newer one). False when nothing was removed.
   */
  removePushSubscription(deviceId: string, endpoint?: string): Promise<boolean>;
  /**
   * Claims the pushes due at `now` (at most `PUSH_CLAIM_BATCH_MAX`, at most `PUSH_CLAIM_PER_ACCOUNT_MAX` of one account,
   * the accounts taking turns): each claimed one's next push is moved to
   * `now` + its device's repeat, so no other claim takes it meanwhile. Pushes of calls no longer ringing (answered,
   * ended, expired) or of subscriptions gone are forgotten instead, but not before `takeSettledPushes` had its
   * chance: those of a call past its time wait for the sweep to expire it, and those of a call that stopped ringing
   * less than `SETTLED_PUSH_TAKE_WAIT_MS` ago wait that long. A new event schedules a push to every device of
   * the account with a subscription but the sending one, due at once (in `appendEvent`'s transaction). The pushes of
   * `exceptAccounts` are left due (the caller holds as many of theirs as it may).
   */
  claimDuePushes(now: number, exceptAccounts?: readonly string[]): Promise<DuePush[]>;
  settlePush(key: PushKey, settlement: PushSettlement): Promise<void>;
  /**
   * The computer that posted a call still ringing asks that it be pushed again now (its escalation ladder's first
   * rung, or the quiet summary ringing a quiet call, whose pushes are scheduled now): every device's next push of it
   * falls due at `now`. The number of devices it will be pushed to (0: the call
   * is not ringing, is not this computer's, or no device has a subscription).
   */
  pushCallAgain(input: {
    accountId: string;
    eventId: string;
    fromDeviceId: string;
    now: number;
  }): Promise<number>;
  /**
   * The call stopped ringing: forgets its pushes, and returns the subscriptions of the devices it was pushed to (at
   * least one try) but `settledBy` (the device that settled it; null when it expired). Atomic: of two takes of one
   * call (answered, then ended by the answering device; two instances), only the first finds anything.
   */
  takeSettledPushes(input: {
    accountId: string;
    eventId: string;
    settledBy: string | null;
  }): Promise<PushSubscriptionRecord[]>;

  // Housekeeping.
  /** Expires calls and replies due at `now` (erasing ciphertext) and returns their stream entries. */
  expireDue(now: number): Promise<StreamEntry[]>;
  /**
   * Forgets ended calls, settled replies and stream history from before `before`; and everything of devices removed
   * before it (their delivery records and names, replies, ids on calls, a removed computer's ended calls), then
   * accounts with no device left.
   */
  pruneBefore(before: number): Promise<void>;
}
