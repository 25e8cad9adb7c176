import type { ReplyStatus } from "@ringback/protocol";
import { type Row, text } from "./columns.js";
import type { AccountUsage, EnqueueReplyOutcome, NewReply, QueuedReply, StreamEntry } from "./store.js";
import { storeQuery, storeWrite } from "./store-query.js";

export type ReplyEntry = StreamEntry & { kind: "reply-status" };

/** The reply statements both stores run as they are (`?` placeholders); a store adds only its own clauses. */
const REPLY_SQL = {
  existing: "SELECT event_id, to_device_id, status FROM replies WHERE account_id = ? AND reply_id = ?",
  /** The event row outlives its erased ciphertext, so a reply after hang-up still finds its computer. */
  target: `SELECT e.from_device_id, d.removed_at FROM events e JOIN devices d ON d.id = e.from_device_id
    WHERE e.account_id = ? AND e.event_id = ?`,
  insert: `INSERT INTO replies (account_id, reply_id, event_id, from_device_id, to_device_id, sealed, sealed_bytes,
      status, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'queued', ?, ?)`,
  queued: `SELECT reply_id, event_id, sealed FROM replies WHERE to_device_id = ? AND status = 'queued'
    ORDER BY created_at, reply_id`,
  prune: "DELETE FROM replies WHERE status <> 'queued' AND settled_at < ?",
} as const;

/** The reply reads and writes both stores run the same way. */
export const REPLY_QUERIES = {
  /** What a post of a reply id already stored gets; null for a new one. */
  existing: (input: NewReply) =>
    storeQuery(REPLY_SQL.existing, [input.accountId, input.replyId], ([row]) =>
      row ? existingReplyOutcome(row, input) : null,
    ),
  /** The computer a reply goes to (`from_device_id`) and whether it was removed (`removed_at`); none: no call. */
  target: (input: NewReply) =>
    storeQuery(REPLY_SQL.target, [input.accountId, input.eventId], ([row]): Row | undefined => row),
  /** A new reply, queued for `toDeviceId`. */
  insert: (input: NewReply, toDeviceId: string) =>
    storeWrite(REPLY_SQL.insert, [
      input.accountId,
      input.replyId,
      input.eventId,
      input.fromDeviceId,
      toDeviceId,
      input.sealed,
      Buffer.byteLength(input.sealed),
      input.now,
      input.expiresAt,
    ]),
  queued: (deviceId: string) => storeQuery(REPLY_SQL.queued, [deviceId], (rows) => rows.map(toQueuedReply)),
  prune: (before: number) => storeWrite(REPLY_SQL.prune, [before]),
  /** The sealed reply is erased once it is settled: nothing is left to deliver. */
  settle: (keys: ReplyKeys, status: ReplyStatus, now: number) =>
    storeWrite(
      "UPDATE replies SET status = ?, sealed = NULL, settled_at = ? WHERE account_id = ? AND reply_id = ?",
      [status, now, keys.accountId, keys.replyId],
    ),
} as const;

/** The reply a post stored, with its status entries (queued, then failed at once if its computer was removed). */
export function createdReply(toDeviceId: string, entries: readonly ReplyEntry[]): EnqueueReplyOutcome {
  const status = entries.at(-1)?.change.status ?? "queued";
  return { kind: "created", toDeviceId, status, entries };
}

export function newReplyKeys(input: NewReply): ReplyKeys {
  return { accountId: input.accountId, eventId: input.eventId, replyId: input.replyId };
}

/** A post of a reply id already stored (its `existing` row): a repeat of it, or a conflict with another call's. */
function existingReplyOutcome(existing: Row, input: NewReply): EnqueueReplyOutcome {
  if (text(existing.event_id) !== input.eventId) return { kind: "conflict" };
  return {
    kind: "repeat",
    toDeviceId: text(existing.to_device_id),
    status: text(existing.status) as ReplyStatus,
  };
}

/** Whether the account has room for the reply `input` would queue. */
export function replyFits(usage: AccountUsage, input: NewReply): boolean {
  const sealedBytes = Buffer.byteLength(input.sealed);
  return (
    usage.queuedReplies < input.limits.queuedMax &&
    usage.sealedBytes + sealedBytes <= input.limits.sealedBytesMax
  );
}

function toQueuedReply(row: Row): QueuedReply {
  return { replyId: text(row.reply_id), eventId: text(row.event_id), sealed: text(row.sealed) };
}

/** Which reply a status change is about. */
export interface ReplyKeys {
  readonly accountId: string;
  readonly eventId: string;
  readonly replyId: string;
}

/** A reply's new status, with its reason when it failed (sealed by the computer, or the relay's own plaintext). */
export interface ReplyStatusInput {
  readonly status: ReplyStatus;
  readonly sealedReason?: string | null;
  readonly plaintextReason?: string | null;
  readonly now: number;
}

export function replyKeys(row: Row): ReplyKeys {
  return { accountId: text(row.account_id), eventId: text(row.event_id), replyId: text(row.reply_id) };
}

/** The stream entry of a reply's status change just stored with `seq`. */
export function replyStatusEntry(keys: ReplyKeys, change: ReplyStatusInput, seq: number): ReplyEntry {
  return {
    kind: "reply-status",
    accountId: keys.accountId,
    seq,
    change: {
      seq,
      eventId: keys.eventId,
      replyId: keys.replyId,
      status: change.status,
      sealedReason: change.sealedReason ?? null,
      plaintextReason: change.plaintextReason ?? null,
      at: new Date(change.now).toISOString(),
    },
  };
}
