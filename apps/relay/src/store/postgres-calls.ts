import { isFinalCallStatus, type RelayedEvent } from "@ringback/protocol";
import {
  CALL_SQL,
  callStatusEntry,
  callStatusRefusal,
  eventParameters,
  existingEventOutcome,
  expiredCallEntry,
  newCallEntry,
  openCallsSnapshot,
  streamSnapshot,
  toOpenCallEntry,
  toRelayedEvent,
  toStreamEntry,
} from "./call-rows.js";
import type { Row } from "./columns.js";
import type { DeliveryEntry } from "./delivery-rows.js";
import { eventFits } from "./event-quota.js";
import { integer, type PostgresDatabase, type Queries, query, text } from "./postgres-database.js";
import { deliveriesSince, openCallDeliveries } from "./postgres-deliveries.js";
import { schedulePushes } from "./postgres-push.js";
import { appendStatusEntry, headSeq, nextSeq, notifyEntries } from "./postgres-rows.js";
import {
  type AccountUsage,
  type AppendEventResult,
  type CallStatusInput,
  type CallStatusOutcome,
  EXPIRY_BATCH_MAX,
  type NewEvent,
  type StreamEntry,
  type StreamPage,
  type StreamSnapshot,
} from "./store.js";
import { lastSeqWithin, type PageRequest, streamPage as pageOf } from "./stream-pages.js";

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
  await query(tx, CALL_SQL.insertCallEntry, [input.accountId, seq, input.eventId, input.receivedAt]);
  await schedulePushes(tx, { ...input, now: input.receivedAt });
  const entry = newCallEntry(input, seq);
  await notifyEntries(tx, channel, [entry]);
  return { kind: "created" as const, entry };
}

/** A repeat from the same computer, another computer's event id, or this tracker task already rung; else null. */
async function classifyExisting(db: Queries, input: NewEvent): Promise<AppendEventResult | null> {
  const [existing] = await query(db, CALL_SQL.existingEvent, [input.accountId, input.eventId]);
  if (existing) return existingEventOutcome(existing, input);
  if (input.taskId === null) return null;
  const [sameTask] = await query(db, CALL_SQL.sameTask, [input.accountId, input.taskId]);
  return sameTask ? { kind: "duplicate_task" } : null;
}

export async function getCall(db: Queries, accountId: string, eventId: string): Promise<RelayedEvent | null> {
  const [row] = await query(db, CALL_SQL.call, [accountId, eventId]);
  return row ? toRelayedEvent(row) : null;
}

export function setCallStatus(pg: PostgresDatabase, input: CallStatusInput): Promise<CallStatusOutcome> {
  return pg.transaction(async (tx) => {
    const isFinal = isFinalCallStatus(input.status);
    // First answer wins as one conditional update: a second writer waits for the row lock, then finds the
    // condition false against the committed row and changes nothing.
    const changed = await tx`UPDATE events SET status = ${input.status}, status_device_id = ${input.deviceId},
        status_at = ${input.now},
        sealed = CASE WHEN ${isFinal} THEN NULL ELSE sealed END,
        expires_at = ${isFinal ? null : input.answeredExpiresAt}
      WHERE account_id = ${input.accountId} AND event_id = ${input.eventId}
        AND (status = 'pending'
          OR (status = 'answered' AND status_device_id = ${input.deviceId} AND ${input.status} <> 'answered'))
      RETURNING event_id`;
    if (changed.length === 0) {
      // Why it changed nothing, from the call as it is now.
      const [row] = await query(tx, CALL_SQL.callStatus, [input.accountId, input.eventId]);
      return callStatusRefusal(row, input);
    }
    const seq = await nextSeq(tx, input.accountId);
    const entry = callStatusEntry(input, seq);
    await appendStatusEntry(tx, entry, input.now);
    await notifyEntries(tx, pg.channel, [entry]);
    return { kind: "changed", status: input.status, entry };
  });
}

export function streamSince(
  pg: PostgresDatabase,
  accountId: string,
  afterSeq: number,
): Promise<StreamSnapshot> {
  return pg.snapshot(async (tx) =>
    streamSnapshot(
      await query(tx, CALL_SQL.streamSince, [accountId, afterSeq]),
      await deliveriesSince(tx, accountId, afterSeq),
      await headSeq(tx, accountId),
    ),
  );
}

export function pendingCalls(pg: PostgresDatabase, accountId: string): Promise<StreamSnapshot> {
  return pg.snapshot(async (tx) =>
    openCallsSnapshot(
      accountId,
      await query(tx, CALL_SQL.openCalls, [accountId]),
      await openCallDeliveries(tx, accountId),
      await headSeq(tx, accountId),
    ),
  );
}

export function streamPage(pg: PostgresDatabase, page: PageRequest): Promise<StreamPage> {
  return pg.snapshot((tx) =>
    pageWithin(tx, page, {
      ...CALL_SQL.streamPage,
      toEntry: toStreamEntry,
      deliveries: () => deliveriesSince(tx, page.accountId, page.afterSeq, page.limit),
    }),
  );
}

export function pendingCallsPage(pg: PostgresDatabase, page: PageRequest): Promise<StreamPage> {
  return pg.snapshot((tx) =>
    pageWithin(tx, page, {
      ...CALL_SQL.openCallsPage,
      toEntry: (row) => toOpenCallEntry(page.accountId, row),
      deliveries: () => openCallDeliveries(tx, page.accountId, page.afterSeq, page.limit),
    }),
  );
}

/**
 * A page of `rows` (its parameters: account, after seq, end seq, limit) after `sizes` (account, after seq, limit: each
 * row's seq and sealed bytes) said where the page's bytes end (read only when they are bounded); call inside the
 * read's snapshot.
 */
async function pageWithin(
  tx: Queries,
  page: PageRequest,
  reads: {
    readonly sizes: string;
    readonly rows: string;
    readonly toEntry: (row: Row) => StreamEntry | null;
    readonly deliveries: () => Promise<DeliveryEntry[]>;
  },
): Promise<StreamPage> {
  const { accountId, afterSeq, limit, maxBytes } = page;
  const endSeq = Number.isFinite(maxBytes)
    ? lastSeqWithin(await query(tx, reads.sizes, [accountId, afterSeq, limit]), maxBytes)
    : null;
  return pageOf({
    endSeq,
    rows: await query(tx, reads.rows, [accountId, afterSeq, endSeq ?? Number.MAX_SAFE_INTEGER, limit]),
    toEntry: reads.toEntry,
    deliveries: await reads.deliveries(),
    limit,
    headSeq: await headSeq(tx, accountId),
  });
}

/**
 * Expires open calls due at `now`, erasing their ciphertext. SKIP LOCKED lets two instances sweep at once
 * without taking the same calls, and account order keeps their account locks from deadlocking.
 */
export function expireCalls(pg: PostgresDatabase, now: number): Promise<StreamEntry[]> {
  return pg.transaction(async (tx) => {
    const due = await tx`SELECT account_id, event_id FROM events
      WHERE expires_at IS NOT NULL AND expires_at <= ${now}
      ORDER BY account_id, event_id LIMIT ${EXPIRY_BATCH_MAX} FOR UPDATE SKIP LOCKED`;
    const entries: StreamEntry[] = [];
    for (const row of due) {
      const accountId = text(row.account_id);
      const eventId = text(row.event_id);
      await query(tx, CALL_SQL.expireCall, [now, accountId, eventId]);
      const seq = await nextSeq(tx, accountId);
      const entry = expiredCallEntry(accountId, eventId, seq, now);
      await appendStatusEntry(tx, entry, now);
      entries.push(entry);
    }
    await notifyEntries(tx, pg.channel, entries);
    return entries;
  });
}

/** Forgets ended calls older than `before` (kept until then so a late retry of the same event stays idempotent). */
export async function pruneCalls(db: Queries, before: number): Promise<void> {
  await query(db, CALL_SQL.pruneCalls, [before]);
  await query(db, CALL_SQL.pruneEntries, [before]);
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
