import { REPLY_COMPUTER_REMOVED_REASON, REPLY_EXPIRED_REASON } from "@ringback/protocol";
import { accountUsage } from "./postgres-calls.js";
import { type PostgresDatabase, type Queries, query, type Row, text } from "./postgres-database.js";
import { appendStatusEntry, nextSeq, notifyEntries } from "./postgres-rows.js";
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
import {
  type EnqueueReplyOutcome,
  EXPIRY_BATCH_MAX,
  type NewReply,
  type QueuedReply,
  type SettleReplyInput,
} from "./store.js";

/** Thrown inside a transaction to roll it back when another instance stored the same reply id first. */
class ReplyExists extends Error {}

export async function enqueueReply(pg: PostgresDatabase, input: NewReply): Promise<EnqueueReplyOutcome> {
  const known = await classifyExisting(pg.sql, input);
  if (known) return known;
  try {
    return await pg.transaction(async (tx): Promise<EnqueueReplyOutcome> => {
      const [event] = await query(tx, REPLY_SQL.target, [input.accountId, input.eventId]);
      if (!event) return { kind: "not_found" };
      const toDeviceId = text(event.from_device_id);
      const sealedBytes = Buffer.byteLength(input.sealed);
      // A reply to a removed computer stores nothing (it fails at once), so it is not held to the quota.
      if (event.removed_at === null) {
        // The account's row lock: its replies are queued one at a time, each counting the ones committed before
        // it, so the quota holds across instances and concurrent posts.
        await tx`SELECT id FROM accounts WHERE id = ${input.accountId} FOR UPDATE`;
        const usage = await accountUsage(tx, input.accountId);
        if (!replyFits(usage, input.limits, sealedBytes)) {
          // A concurrent post of this same reply id may have been stored meanwhile: answered as a repeat.
          if (await classifyExisting(tx, input)) throw new ReplyExists();
          return { kind: "full", usage };
        }
      }
      const inserted = await query(
        tx,
        `${REPLY_SQL.insert} ON CONFLICT DO NOTHING RETURNING reply_id`,
        replyParameters(input, toDeviceId, sealedBytes),
      );
      if (inserted.length === 0) throw new ReplyExists();
      const keys: ReplyKeys = { accountId: input.accountId, eventId: input.eventId, replyId: input.replyId };
      const entries = [await statusEntry(tx, keys, { status: "queued", now: input.now })];
      if (event.removed_at !== null) {
        entries.push(await failReply(tx, keys, REPLY_COMPUTER_REMOVED_REASON, input.now));
      }
      await notifyEntries(tx, pg.channel, entries);
      const status = entries.at(-1)?.change.status ?? "queued";
      return { kind: "created", toDeviceId, status, entries };
    });
  } catch (error) {
    if (!(error instanceof ReplyExists)) throw error;
    const existing = await classifyExisting(pg.sql, input);
    if (!existing) throw new Error("The reply conflicted but is not stored.");
    return existing;
  }
}

async function classifyExisting(db: Queries, input: NewReply): Promise<EnqueueReplyOutcome | null> {
  const [existing] = await query(db, REPLY_SQL.existing, [input.accountId, input.replyId]);
  return existing ? existingReplyOutcome(existing, input) : null;
}

export async function queuedReplies(db: Queries, deviceId: string): Promise<QueuedReply[]> {
  return (await query(db, REPLY_SQL.queued, [deviceId])).map(toQueuedReply);
}

export function settleReply(pg: PostgresDatabase, input: SettleReplyInput): Promise<ReplyEntry | null> {
  return pg.transaction(async (tx) => {
    // Conditional on 'queued': of two settlements (or a settlement and an expiry), only the first changes it.
    const [row] =
      await tx`UPDATE replies SET status = ${input.status}, sealed = NULL, settled_at = ${input.now}
      WHERE to_device_id = ${input.deviceId} AND reply_id = ${input.replyId} AND status = 'queued'
      RETURNING account_id, reply_id, event_id`;
    if (!row) return null;
    const entry = await statusEntry(tx, replyKeys(row), input);
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
      await statusEntry(db, replyKeys(row), {
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

export async function pruneReplies(db: Queries, before: number): Promise<void> {
  await query(db, REPLY_SQL.prune, [before]);
}

function sortedByAccount(rows: readonly Row[]): Row[] {
  return [...rows].sort((a, b) =>
    `${text(a.account_id)}\n${text(a.reply_id)}` < `${text(b.account_id)}\n${text(b.reply_id)}` ? -1 : 1,
  );
}

/** Fails a queued reply with a reason of the relay's own: it carries no content, so it is plaintext. */
async function failReply(
  db: Queries,
  keys: ReplyKeys,
  plaintextReason: string,
  now: number,
): Promise<ReplyEntry> {
  // The sealed reply is erased once it is settled: nothing is left to deliver.
  await db`UPDATE replies SET status = 'failed', sealed = NULL, settled_at = ${now}
    WHERE account_id = ${keys.accountId} AND reply_id = ${keys.replyId}`;
  return statusEntry(db, keys, { status: "failed", plaintextReason, now });
}

/** Takes the next seq for a reply's status change and appends it to the account's stream. */
async function statusEntry(db: Queries, keys: ReplyKeys, change: ReplyStatusInput): Promise<ReplyEntry> {
  const seq = await nextSeq(db, keys.accountId);
  const entry = replyStatusEntry(keys, change, seq);
  await appendStatusEntry(db, entry, change.now);
  return entry;
}
