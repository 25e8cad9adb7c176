import { type CallStatus, isFinalCallStatus, type RelayedEvent } from "@ringback/protocol";
import { type DeliveryEntry, mergeBySeq } from "./delivery-rows.js";
import { eventFits } from "./event-quota.js";
import { integer, type PostgresDatabase, type Queries, text, textOrNull } from "./postgres-database.js";
import { deliveriesSince, openCallDeliveries } from "./postgres-deliveries.js";
import { schedulePushes } from "./postgres-push.js";
import { appendStatusEntry, headSeq, nextSeq, notifyEntries } from "./postgres-rows.js";
import {
  callStatusEntry,
  EVENT_COLUMNS,
  expiredCallEntry,
  newCallEntry,
  type Row,
  STREAM_COLUMNS,
  toOpenCallEntry,
  toRelayedEvent,
  toStreamEntry,
} from "./row-records.js";
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
  const inserted = await tx`INSERT INTO events (account_id, event_id, seq, source, occurred_at, received_at,
          task_id, from_device_id, sealed, sealed_bytes, status, expires_at)
        VALUES (${input.accountId}, ${input.eventId}, ${seq}, ${input.source}, ${input.occurredAt},
          ${input.receivedAt}, ${input.taskId}, ${input.fromDeviceId}, ${input.sealed},
          ${Buffer.byteLength(input.sealed)}, 'pending', ${input.expiresAt})
        ON CONFLICT DO NOTHING RETURNING seq`;
  // Rolls the seq back too, so a refused event leaves no gap.
  if (inserted.length === 0) throw new EventExists();
  await tx`INSERT INTO stream_entries (account_id, seq, kind, event_id, change, created_at)
        VALUES (${input.accountId}, ${seq}, 'call', ${input.eventId}, NULL, ${input.receivedAt})`;
  await schedulePushes(tx, { ...input, now: input.receivedAt });
  const entry = newCallEntry(input, seq);
  await notifyEntries(tx, channel, [entry]);
  return { kind: "created" as const, entry };
}

/** A repeat from the same computer, another computer's event id, or this tracker task already rung; else null. */
async function classifyExisting(db: Queries, input: NewEvent): Promise<AppendEventResult | null> {
  const [existing] = await db`SELECT seq, from_device_id FROM events
    WHERE account_id = ${input.accountId} AND event_id = ${input.eventId}`;
  if (existing) {
    if (text(existing.from_device_id) !== input.fromDeviceId) return { kind: "duplicate_task" };
    return { kind: "repeat", seq: integer(existing.seq) };
  }
  if (input.taskId !== null) {
    const [sameTask] = await db`SELECT 1 AS found FROM events
      WHERE account_id = ${input.accountId} AND task_id = ${input.taskId}`;
    if (sameTask) return { kind: "duplicate_task" };
  }
  return null;
}

export async function getCall(db: Queries, accountId: string, eventId: string): Promise<RelayedEvent | null> {
  const [row] = await db`SELECT ${db.unsafe(EVENT_COLUMNS)} FROM events e
    WHERE e.account_id = ${accountId} AND e.event_id = ${eventId} AND e.sealed IS NOT NULL`;
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
    if (changed.length === 0) return refusal(tx, input);
    const seq = await nextSeq(tx, input.accountId);
    const entry = callStatusEntry(input, seq);
    await appendStatusEntry(tx, entry, input.now);
    await notifyEntries(tx, pg.channel, [entry]);
    return { kind: "changed", status: input.status, entry };
  });
}

/** Why a status write changed nothing, from the call as it is now. */
async function refusal(db: Queries, input: CallStatusInput): Promise<CallStatusOutcome> {
  const [row] = await db`SELECT status, status_device_id FROM events
    WHERE account_id = ${input.accountId} AND event_id = ${input.eventId}`;
  if (!row) return { kind: "not_found" };
  const current = text(row.status) as CallStatus;
  if (current === input.status && textOrNull(row.status_device_id) === input.deviceId) {
    return { kind: "repeat", status: current };
  }
  if (current === "answered" || input.status === "answered")
    return { kind: "already_answered", status: current };
  return { kind: "already_ended", status: current };
}

export function streamSince(
  pg: PostgresDatabase,
  accountId: string,
  afterSeq: number,
): Promise<StreamSnapshot> {
  return pg.snapshot(async (tx) => {
    const rows = await tx`SELECT ${tx.unsafe(STREAM_COLUMNS)} FROM stream_entries s
      LEFT JOIN events e ON e.account_id = s.account_id AND e.event_id = s.event_id
      WHERE s.account_id = ${accountId} AND s.seq > ${afterSeq} ORDER BY s.seq`;
    const entries = rows.map(toStreamEntry).filter((entry): entry is StreamEntry => entry !== null);
    const deliveries = await deliveriesSince(tx, accountId, afterSeq);
    return { entries: mergeBySeq(entries, deliveries), headSeq: await headSeq(tx, accountId) };
  });
}

export function pendingCalls(pg: PostgresDatabase, accountId: string): Promise<StreamSnapshot> {
  return pg.snapshot(async (tx) => {
    const rows = await tx`SELECT ${tx.unsafe(EVENT_COLUMNS)} FROM events e
      WHERE e.account_id = ${accountId} AND e.expires_at IS NOT NULL AND e.sealed IS NOT NULL ORDER BY e.seq`;
    const entries = rows.map((row) => toOpenCallEntry(accountId, row));
    const deliveries = await openCallDeliveries(tx, accountId);
    return { entries: mergeBySeq(entries, deliveries), headSeq: await headSeq(tx, accountId) };
  });
}

export function streamPage(pg: PostgresDatabase, page: PageRequest): Promise<StreamPage> {
  const { accountId, afterSeq, limit } = page;
  return pg.snapshot((tx) =>
    pageWithin(tx, page, {
      sizes: () => tx`SELECT s.seq,
          CASE WHEN s.kind = 'call' AND e.sealed IS NOT NULL THEN e.sealed_bytes ELSE 0 END AS bytes
        FROM stream_entries s
        LEFT JOIN events e ON e.account_id = s.account_id AND e.event_id = s.event_id
        WHERE s.account_id = ${accountId} AND s.seq > ${afterSeq} ORDER BY s.seq LIMIT ${limit}`,
      rows: (endSeq) => tx`SELECT ${tx.unsafe(STREAM_COLUMNS)} FROM stream_entries s
        LEFT JOIN events e ON e.account_id = s.account_id AND e.event_id = s.event_id
        WHERE s.account_id = ${accountId} AND s.seq > ${afterSeq} AND s.seq <= ${endSeq}
        ORDER BY s.seq LIMIT ${limit}`,
      toEntry: toStreamEntry,
      deliveries: () => deliveriesSince(tx, accountId, afterSeq, limit),
    }),
  );
}

export function pendingCallsPage(pg: PostgresDatabase, page: PageRequest): Promise<StreamPage> {
  const { accountId, afterSeq, limit } = page;
  return pg.snapshot((tx) =>
    pageWithin(tx, page, {
      sizes: () => tx`SELECT e.seq, e.sealed_bytes AS bytes FROM events e
        WHERE e.account_id = ${accountId} AND e.seq > ${afterSeq} AND e.expires_at IS NOT NULL
          AND e.sealed IS NOT NULL
        ORDER BY e.seq LIMIT ${limit}`,
      rows: (endSeq) => tx`SELECT ${tx.unsafe(EVENT_COLUMNS)} FROM events e
        WHERE e.account_id = ${accountId} AND e.seq > ${afterSeq} AND e.expires_at IS NOT NULL
          AND e.sealed IS NOT NULL AND e.seq <= ${endSeq}
        ORDER BY e.seq LIMIT ${limit}`,
      toEntry: (row) => toOpenCallEntry(accountId, row),
      deliveries: () => openCallDeliveries(tx, accountId, afterSeq, limit),
    }),
  );
}

/**
 * A page of the rows `rows` reads up to a seq, after `sizes` (each row's seq and sealed bytes) said where the page's
 * bytes end (read only when they are bounded); call inside the read's snapshot.
 */
async function pageWithin(
  tx: Queries,
  page: PageRequest,
  reads: {
    readonly sizes: () => Promise<readonly Row[]>;
    readonly rows: (endSeq: number) => Promise<readonly Row[]>;
    readonly toEntry: (row: Row) => StreamEntry | null;
    readonly deliveries: () => Promise<DeliveryEntry[]>;
  },
): Promise<StreamPage> {
  const endSeq = Number.isFinite(page.maxBytes) ? lastSeqWithin(await reads.sizes(), page.maxBytes) : null;
  return pageOf({
    endSeq,
    rows: await reads.rows(endSeq ?? Number.MAX_SAFE_INTEGER),
    toEntry: reads.toEntry,
    deliveries: await reads.deliveries(),
    limit: page.limit,
    headSeq: await headSeq(tx, page.accountId),
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
      await tx`UPDATE events SET status = 'expired', status_device_id = NULL, status_at = ${now}, sealed = NULL,
          expires_at = NULL
        WHERE account_id = ${accountId} AND event_id = ${eventId}`;
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
  await db`DELETE FROM events WHERE expires_at IS NULL AND status_at < ${before}`;
  await db`DELETE FROM stream_entries WHERE created_at < ${before}`;
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
