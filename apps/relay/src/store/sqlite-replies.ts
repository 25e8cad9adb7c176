import { REPLY_COMPUTER_REMOVED_REASON, REPLY_EXPIRED_REASON, type ReplyStatus } from "@ringback/protocol";
import {
  existingReplyOutcome,
  REPLY_SQL,
  type ReplyEntry,
  type ReplyKeys,
  type ReplyStatusInput,
  replyFits,
  replyKeys,
  replyParameters,
  replyStatusEntry,
  toQueuedReply,
} from "./reply-rows.js";
import { accountUsage } from "./sqlite-calls.js";
import { type SqliteDatabase, text } from "./sqlite-database.js";
import { appendStatusEntry, nextSeq } from "./sqlite-rows.js";
import {
  type EnqueueReplyOutcome,
  EXPIRY_BATCH_MAX,
  type NewReply,
  type QueuedReply,
  type SettleReplyInput,
} from "./store.js";

export function enqueueReply(db: SqliteDatabase, input: NewReply): EnqueueReplyOutcome {
  return db.transaction(() => {
    const existing = db.get(REPLY_SQL.existing, input.accountId, input.replyId);
    if (existing) return existingReplyOutcome(existing, input);
    const event = db.get(REPLY_SQL.target, input.accountId, input.eventId);
    if (!event) return { kind: "not_found" };
    const toDeviceId = text(event.from_device_id);
    const sealedBytes = Buffer.byteLength(input.sealed);
    // The account's quota, in the insert's write transaction: concurrent replies cannot overshoot it. A reply to a
    // removed computer stores nothing (it fails at once), so it is not held to it.
    if (event.removed_at === null) {
      const usage = accountUsage(db, input.accountId);
      if (!replyFits(usage, input.limits, sealedBytes)) return { kind: "full", usage };
    }
    db.run(REPLY_SQL.insert, ...replyParameters(input, toDeviceId, sealedBytes));
    const keys: ReplyKeys = { accountId: input.accountId, eventId: input.eventId, replyId: input.replyId };
    const entries = [statusEntry(db, keys, { status: "queued", now: input.now })];
    if (event.removed_at !== null) {
      entries.push(failReply(db, keys, REPLY_COMPUTER_REMOVED_REASON, input.now));
    }
    const status = entries.at(-1)?.change.status ?? "queued";
    return { kind: "created", toDeviceId, status, entries };
  });
}

export function queuedReplies(db: SqliteDatabase, deviceId: string): QueuedReply[] {
  return db.all(REPLY_SQL.queued, deviceId).map(toQueuedReply);
}

export function settleReply(db: SqliteDatabase, input: SettleReplyInput): ReplyEntry | null {
  return db.transaction(() => {
    const row = db.get(
      `SELECT account_id, reply_id, event_id FROM replies
       WHERE to_device_id = ? AND reply_id = ? AND status = 'queued'`,
      input.deviceId,
      input.replyId,
    );
    if (!row) return null;
    const keys = replyKeys(row);
    markSettled(db, keys, input.status, input.now);
    return statusEntry(db, keys, input);
  });
}

/** Fails the queued replies of a removed computer; call inside the removal's transaction. */
export function failRepliesTo(db: SqliteDatabase, deviceId: string, now: number): ReplyEntry[] {
  const queued = db.all(
    "SELECT account_id, reply_id, event_id FROM replies WHERE to_device_id = ? AND status = 'queued'",
    deviceId,
  );
  return queued.map((row) => failReply(db, replyKeys(row), REPLY_COMPUTER_REMOVED_REASON, now));
}

/** Fails replies no daemon picked up before their expiry. */
export function expireReplies(db: SqliteDatabase, now: number): ReplyEntry[] {
  return db.transaction(() => {
    const due = db.all(
      "SELECT account_id, reply_id, event_id FROM replies WHERE status = 'queued' AND expires_at <= ? LIMIT ?",
      now,
      EXPIRY_BATCH_MAX,
    );
    return due.map((row) => failReply(db, replyKeys(row), REPLY_EXPIRED_REASON, now));
  });
}

export function pruneReplies(db: SqliteDatabase, before: number): void {
  db.run(REPLY_SQL.prune, before);
}

/** Fails a queued reply with a reason of the relay's own: it carries no content, so it is plaintext. */
function failReply(db: SqliteDatabase, keys: ReplyKeys, plaintextReason: string, now: number): ReplyEntry {
  markSettled(db, keys, "failed", now);
  return statusEntry(db, keys, { status: "failed", plaintextReason, now });
}

function markSettled(db: SqliteDatabase, keys: ReplyKeys, status: ReplyStatus, now: number): void {
  // The sealed reply is erased once it is settled: nothing is left to deliver.
  db.run(
    "UPDATE replies SET status = ?, sealed = NULL, settled_at = ? WHERE account_id = ? AND reply_id = ?",
    status,
    now,
    keys.accountId,
    keys.replyId,
  );
}

/** Takes the next seq for a reply's status change and appends it to the account's stream. */
function statusEntry(db: SqliteDatabase, keys: ReplyKeys, change: ReplyStatusInput): ReplyEntry {
  const seq = nextSeq(db, keys.accountId);
  const entry = replyStatusEntry(keys, change, seq);
  appendStatusEntry(db, entry, change.now);
  return entry;
}
