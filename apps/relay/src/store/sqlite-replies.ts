import { REPLY_COMPUTER_REMOVED_REASON, REPLY_EXPIRED_REASON } from "@ringback/protocol";
import {
  createdReply,
  newReplyKeys,
  REPLY_QUERIES,
  type ReplyEntry,
  type ReplyKeys,
  type ReplyStatusInput,
  replyFits,
  replyKeys,
  replyStatusEntry,
} from "./reply-rows.js";
import { accountUsage } from "./sqlite-calls.js";
import { type SqliteDatabase, text } from "./sqlite-database.js";
import { appendStatusEntry, nextSeq } from "./sqlite-rows.js";
import { type EnqueueReplyOutcome, EXPIRY_BATCH_MAX, type NewReply, type SettleReplyInput } from "./store.js";

export function enqueueReply(db: SqliteDatabase, input: NewReply): EnqueueReplyOutcome {
  return db.transaction(() => {
    const existing = db.read(REPLY_QUERIES.existing(input));
    if (existing) return existing;
    const target = db.read(REPLY_QUERIES.target(input));
    if (!target) return { kind: "not_found" };
    const isRemoved = target.removed_at !== null;
    // The account's quota, in the insert's write transaction: concurrent replies cannot overshoot it. A reply to a
    // removed computer stores nothing (it fails at once), so it is not held to it.
    if (!isRemoved) {
      const usage = accountUsage(db, input.accountId);
      if (!replyFits(usage, input)) return { kind: "full", usage };
    }
    const toDeviceId = text(target.from_device_id);
    db.read(REPLY_QUERIES.insert(input, toDeviceId));
    const keys = newReplyKeys(input);
    const entries = [appendReplyStatus(db, keys, { status: "queued", now: input.now })];
    if (isRemoved) entries.push(failReply(db, keys, REPLY_COMPUTER_REMOVED_REASON, input.now));
    return createdReply(toDeviceId, entries);
  });
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
    db.read(REPLY_QUERIES.settle(keys, input.status, input.now));
    return appendReplyStatus(db, keys, input);
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

/** Takes the next seq for a reply's status change and appends it to the account's stream. */
function appendReplyStatus(db: SqliteDatabase, keys: ReplyKeys, change: ReplyStatusInput): ReplyEntry {
  const entry = replyStatusEntry(keys, change, nextSeq(db, keys.accountId));
  appendStatusEntry(db, entry, change.now);
  return entry;
}

/** Fails a queued reply with a reason of the relay's own: it carries no content, so it is plaintext. */
function failReply(db: SqliteDatabase, keys: ReplyKeys, plaintextReason: string, now: number): ReplyEntry {
  db.read(REPLY_QUERIES.settle(keys, "failed", now));
  return appendReplyStatus(db, keys, { status: "failed", plaintextReason, now });
}
