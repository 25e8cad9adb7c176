import { REPLY_COMPUTER_REMOVED_REASON, REPLY_EXPIRED_REASON } from "@ringback/protocol";
import { accountUsage } from "./postgres-calls.js";
import { type PostgresDatabase, type Queries, query, type Row, read, text } from "./postgres-database.js";
import { appendStatusEntry, nextSeq, notifyEntries } from "./postgres-rows.js";
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
import { type EnqueueReplyOutcome, EXPIRY_BATCH_MAX, type NewReply, type SettleReplyInput } from "./store.js";

/** Thrown inside a transaction to roll it back when another instance stored the same reply id first. */
class ReplyExists extends Error {}

export async function enqueueReply(pg: PostgresDatabase, input: NewReply): Promise<EnqueueReplyOutcome> {
  const known = await read(pg.sql, REPLY_QUERIES.existing(input));
  if (known) return known;
  try {
    return await pg.transaction((tx) => insertReply(tx, pg.channel, input));
  } catch (error) {
    if (!(error instanceof ReplyExists)) throw error;
    const existing = await read(pg.sql, REPLY_QUERIES.existing(input));
    if (!existing) throw new Error("The reply conflicted but is not stored.");
    return existing;
  }
}

async function insertReply(tx: Queries, channel: string, input: NewReply): Promise<EnqueueReplyOutcome> {
  const target = await read(tx, REPLY_QUERIES.target(input));
  if (!target) return { kind: "not_found" };
  const isRemoved = target.removed_at !== null;
  // A reply to a removed computer stores nothing (it fails at once), so it is not held to the quota.
  if (!isRemoved) {
    // The account's row lock: its replies are queued one at a time, each counting the ones committed before
    // it, so the quota holds across instances and concurrent posts.
    await tx`SELECT id FROM accounts WHERE id = ${input.accountId} FOR UPDATE`;
    const usage = await accountUsage(tx, input.accountId);
    if (!replyFits(usage, input)) {
      // A concurrent post of this same reply id may have been stored meanwhile: answered as a repeat.
      if (await read(tx, REPLY_QUERIES.existing(input))) throw new ReplyExists();
      return { kind: "full", usage };
    }
  }
  const toDeviceId = text(target.from_device_id);
  const insert = REPLY_QUERIES.insert(input, toDeviceId);
  const inserted = await query(
    tx,
    `${insert.sql} ON CONFLICT DO NOTHING RETURNING reply_id`,
    insert.parameters,
  );
  if (inserted.length === 0) throw new ReplyExists();
  const keys = newReplyKeys(input);
  const entries = [await appendReplyStatus(tx, keys, { status: "queued", now: input.now })];
  if (isRemoved) entries.push(await failReply(tx, keys, REPLY_COMPUTER_REMOVED_REASON, input.now));
  await notifyEntries(tx, channel, entries);
  return createdReply(toDeviceId, entries);
}

export function settleReply(pg: PostgresDatabase, input: SettleReplyInput): Promise<ReplyEntry | null> {
  return pg.transaction(async (tx) => {
    // Conditional on 'queued': of two settlements (or a settlement and an expiry), only the first changes it.
    const [row] =
      await tx`UPDATE replies SET status = ${input.status}, sealed = NULL, settled_at = ${input.now}
      WHERE to_device_id = ${input.deviceId} AND reply_id = ${input.replyId} AND status = 'queued'
      RETURNING account_id, reply_id, event_id`;
    if (!row) return null;
    const entry = await appendReplyStatus(tx, replyKeys(row), input);
    await notifyEntries(tx, pg.channel, [entry]);
    return entry;
  });
}

/** Fails the queued replies of a removed computer; call inside the removal's transaction. */
export async function failRepliesTo(db: Queries, deviceId: string, now: number): Promise<ReplyEntry[]> {
  const failed = await db`UPDATE replies SET status = 'failed', sealed = NULL, settled_at = ${now}
    WHERE to_device_id = ${deviceId} AND status = 'queued' RETURNING account_id, reply_id, event_id`;
  const entries: ReplyEntry[] = [];
  for (const row of sortedByAccount(failed)) {
    entries.push(
      await appendReplyStatus(db, replyKeys(row), {
        status: "failed",
        plaintextReason: REPLY_COMPUTER_REMOVED_REASON,
        now,
      }),
    );
  }
  return entries;
}

/** Fails replies no daemon picked up before their expiry; SKIP LOCKED as for calls (postgres-calls.ts). */
export function expireReplies(pg: PostgresDatabase, now: number): Promise<ReplyEntry[]> {
  return pg.transaction(async (tx) => {
    const due = await tx`SELECT account_id, reply_id, event_id FROM replies
      WHERE status = 'queued' AND expires_at <= ${now}
      ORDER BY account_id, reply_id LIMIT ${EXPIRY_BATCH_MAX} FOR UPDATE SKIP LOCKED`;
    const entries: ReplyEntry[] = [];
    for (const row of due) entries.push(await failReply(tx, replyKeys(row), REPLY_EXPIRED_REASON, now));
    await notifyEntries(tx, pg.channel, entries);
    return entries;
  });
}

function sortedByAccount(rows: readonly Row[]): Row[] {
  return [...rows].sort((a, b) =>
    `${text(a.account_id)}\n${text(a.reply_id)}` < `${text(b.account_id)}\n${text(b.reply_id)}` ? -1 : 1,
  );
}

/** Takes the next seq for a reply's status change and appends it to the account's stream. */
async function appendReplyStatus(
  db: Queries,
  keys: ReplyKeys,
  change: ReplyStatusInput,
): Promise<ReplyEntry> {
  const entry = replyStatusEntry(keys, change, await nextSeq(db, keys.accountId));
  await appendStatusEntry(db, entry, change.now);
  return entry;
}

/** Fails a queued reply with a reason of the relay's own: it carries no content, so it is plaintext. */
async function failReply(
  db: Queries,
  keys: ReplyKeys,
  plaintextReason: string,
  now: number,
): Promise<ReplyEntry> {
  await read(db, REPLY_QUERIES.settle(keys, "failed", now));
  return appendReplyStatus(db, keys, { status: "failed", plaintextReason, now });
}
