import { ACCOUNT_QUERIES } from "./account-rows.js";
import { CALL_QUERIES, CALL_SQL, eventParameters, newCallEntry } from "./call-rows.js";
import { eventFits } from "./event-quota.js";
import { integer, type PostgresDatabase, type Queries, query, read } from "./postgres-database.js";
import { nextSeq, notifyEntries } from "./postgres-rows.js";
import { PUSH_QUERIES } from "./push-rows.js";
import type { AccountUsage, AppendEventResult, NewEvent } from "./store.js";

/** Thrown inside a transaction to roll it back when a unique constraint says the event already exists. */
class EventExists extends Error {}

/** Thrown inside a transaction to roll it back (its seq too) when the account's quota has no room for the event. */
class AccountFull extends Error {
  constructor(readonly usage: AccountUsage) {
    super("The account's quota is used up.");
  }
}

/**
 * Appends events that passed `knownEvent` in one transaction (group commit); throws `EventExists` or `AccountFull`
 * (rolling all back) when one of them was inserted meanwhile or does not fit its account's quota, and the caller
 * then appends each on its own.
 */
export function appendNewEvents(
  pg: PostgresDatabase,
  inputs: readonly NewEvent[],
): Promise<AppendEventResult[]> {
  return pg.transaction(async (tx) => {
    const results: AppendEventResult[] = [];
    for (const input of inputs) results.push(await insertEvent(tx, pg.channel, input));
    return results;
  });
}

/** Appends an event that passed `knownEvent`, in its own transaction. */
export async function appendNewEvent(pg: PostgresDatabase, input: NewEvent): Promise<AppendEventResult> {
  try {
    return await pg.transaction((tx) => insertEvent(tx, pg.channel, input));
  } catch (error) {
    if (error instanceof AccountFull) return { kind: "full", usage: error.usage };
    if (!(error instanceof EventExists)) throw error;
    // The conflicting row has committed by now (the insert waited for it): read what it is.
    return (await classifyExisting(pg.sql, input)) ?? { kind: "duplicate_task" };
  }
}

/** What a post of an event already stored (or of a tracker task already rung) gets; null for a new event. */
export function knownEvent(pg: PostgresDatabase, input: NewEvent): Promise<AppendEventResult | null> {
  return classifyExisting(pg.sql, input);
}

async function insertEvent(tx: Queries, channel: string, input: NewEvent): Promise<AppendEventResult> {
  // Takes the account's row lock: its events (and queued replies) are stored one at a time, each counting the ones
  // committed before it, so the quota holds across instances and concurrent posts.
  const seq = await nextSeq(tx, input.accountId);
  const usage = await accountUsage(tx, input.accountId);
  if (!eventFits(usage, input.limits, input.sealed)) throw new AccountFull(usage);
  // The primary key and the one-call-per-task index decide between instances posting at once.
  const inserted = await query(
    tx,
    `${CALL_SQL.insertEvent} ON CONFLICT DO NOTHING RETURNING seq`,
    eventParameters(input, seq),
  );
  // Rolls the seq back too, so a refused event leaves no gap.
  if (inserted.length === 0) throw new EventExists();
  await read(tx, CALL_QUERIES.insertCallEntry(input, seq));
  for (const write of PUSH_QUERIES.schedule(input)) await read(tx, write);
  const { countsIn } = input;
  if (countsIn)
    await read(tx, ACCOUNT_QUERIES.rateLimitHit(countsIn.key, input.receivedAt, countsIn.windowMs));
  const entry = newCallEntry(input, seq);
  await notifyEntries(tx, channel, [entry]);
  return { kind: "created" as const, entry };
}

/** A repeat from the same computer, another computer's event id, or this tracker task already rung; else null. */
async function classifyExisting(db: Queries, input: NewEvent): Promise<AppendEventResult | null> {
  const existing = await read(db, CALL_QUERIES.existing(input));
  if (existing) return existing;
  const { taskId } = input;
  if (taskId === null) return null;
  return (await read(db, CALL_QUERIES.sameTask({ ...input, taskId }))) ? { kind: "duplicate_task" } : null;
}

/**
 * The account's calls that still hold ciphertext, its queued replies, and both's bytes: from the `events_open_usage`
 * and `replies_queued_usage` indexes alone.
 */
export async function accountUsage(db: Queries, accountId: string): Promise<AccountUsage> {
  const [row] = await db`SELECT
      (SELECT COUNT(*)::int FROM events WHERE account_id = ${accountId} AND expires_at IS NOT NULL) AS calls,
      (SELECT COALESCE(SUM(sealed_bytes), 0)::bigint FROM events
        WHERE account_id = ${accountId} AND expires_at IS NOT NULL) AS call_bytes,
      (SELECT COUNT(*)::int FROM replies WHERE account_id = ${accountId} AND status = 'queued') AS replies,
      (SELECT COALESCE(SUM(sealed_bytes), 0)::bigint FROM replies
        WHERE account_id = ${accountId} AND status = 'queued') AS reply_bytes`;
  return {
    openCalls: integer(row?.calls),
    queuedReplies: integer(row?.replies),
    sealedBytes: integer(row?.call_bytes) + integer(row?.reply_bytes),
  };
}
