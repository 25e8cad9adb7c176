import { type CallStatus, isFinalCallStatus, type RelayedEvent } from "@ringback/protocol";
import {
  CALL_SQL,
  callStatusEntry,
  callStatusRefusal,
  eventParameters,
  existingEventOutcome,
  expiredCallEntry,
  mayChangeCallStatus,
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
import { integer, type SqliteDatabase, text } from "./sqlite-database.js";
import { deliveriesSince, openCallDeliveries } from "./sqlite-deliveries.js";
import { schedulePushes } from "./sqlite-push.js";
import { appendStatusEntry, headSeq, nextSeq } from "./sqlite-rows.js";
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

export function appendEvent(db: SqliteDatabase, input: NewEvent): AppendEventResult {
  return db.transaction(() => {
    const existing = db.get(CALL_SQL.existingEvent, input.accountId, input.eventId);
    if (existing) return existingEventOutcome(existing, input);
    if (input.taskId !== null && db.get(CALL_SQL.sameTask, input.accountId, input.taskId)) {
      return { kind: "duplicate_task" };
    }
    // The account's quota, in the insert's write transaction (with every event of a group commit before it).
    const usage = accountUsage(db, input.accountId);
    if (!eventFits(usage, input.limits, input.sealed)) return { kind: "full", usage };
    const seq = nextSeq(db, input.accountId);
    db.run(CALL_SQL.insertEvent, ...eventParameters(input, seq));
    db.run(CALL_SQL.insertCallEntry, input.accountId, seq, input.eventId, input.receivedAt);
    schedulePushes(db, { ...input, now: input.receivedAt });
    return { kind: "created", entry: newCallEntry(input, seq) };
  });
}

export function getCall(db: SqliteDatabase, accountId: string, eventId: string): RelayedEvent | null {
  const row = db.get(CALL_SQL.call, accountId, eventId);
  return row ? toRelayedEvent(row) : null;
}

export function setCallStatus(db: SqliteDatabase, input: CallStatusInput): CallStatusOutcome {
  return db.transaction(() => {
    const row = db.get(CALL_SQL.callStatus, input.accountId, input.eventId);
    if (row && mayChangeCallStatus(row, input))
      return changeStatus(db, input, text(row.status) as CallStatus);
    return callStatusRefusal(row, input);
  });
}

function changeStatus(db: SqliteDatabase, input: CallStatusInput, from: CallStatus): CallStatusOutcome {
  const isFinal = isFinalCallStatus(input.status);
  // Conditional on the status read above: the first answer wins even if another process raced past the read.
  const changed = db.run(
    `UPDATE events SET status = ?, status_device_id = ?, status_at = ?,
       sealed = CASE WHEN ? THEN NULL ELSE sealed END, expires_at = ?
     WHERE account_id = ? AND event_id = ? AND status = ?`,
    input.status,
    input.deviceId,
    input.now,
    isFinal ? 1 : 0,
    isFinal ? null : input.answeredExpiresAt,
    input.accountId,
    input.eventId,
    from,
  );
  if (changed === 0) throw new Error("The call changed during its own transaction.");
  const seq = nextSeq(db, input.accountId);
  const entry = callStatusEntry(input, seq);
  appendStatusEntry(db, entry, input.now);
  return { kind: "changed", status: input.status, entry };
}

export function streamSince(db: SqliteDatabase, accountId: string, afterSeq: number): StreamSnapshot {
  return db.snapshot(() =>
    streamSnapshot(
      db.all(CALL_SQL.streamSince, accountId, afterSeq),
      deliveriesSince(db, accountId, afterSeq),
      headSeq(db, accountId),
    ),
  );
}

export function pendingCalls(db: SqliteDatabase, accountId: string): StreamSnapshot {
  return db.snapshot(() =>
    openCallsSnapshot(
      accountId,
      db.all(CALL_SQL.openCalls, accountId),
      openCallDeliveries(db, accountId),
      headSeq(db, accountId),
    ),
  );
}

export function streamPage(db: SqliteDatabase, page: PageRequest): StreamPage {
  return db.snapshot(() =>
    pageWithin(db, page, {
      ...CALL_SQL.streamPage,
      toEntry: toStreamEntry,
      deliveries: deliveriesSince(db, page.accountId, page.afterSeq, page.limit),
    }),
  );
}

export function pendingCallsPage(db: SqliteDatabase, page: PageRequest): StreamPage {
  return db.snapshot(() =>
    pageWithin(db, page, {
      ...CALL_SQL.openCallsPage,
      toEntry: (row) => toOpenCallEntry(page.accountId, row),
      deliveries: openCallDeliveries(db, page.accountId, page.afterSeq, page.limit),
    }),
  );
}

/**
 * A page of `rows` (its parameters: account, after seq, end seq, limit) after `sizes` (account, after seq, limit: each
 * row's seq and sealed bytes) said where the page's bytes end; call inside the read's snapshot.
 */
function pageWithin(
  db: SqliteDatabase,
  page: PageRequest,
  reads: {
    readonly sizes: string;
    readonly rows: string;
    readonly toEntry: (row: Row) => StreamEntry | null;
    readonly deliveries: DeliveryEntry[];
  },
): StreamPage {
  const { accountId, afterSeq, limit, maxBytes } = page;
  const endSeq = lastSeqWithin(db.all(reads.sizes, accountId, afterSeq, limit), maxBytes);
  return pageOf({
    endSeq,
    rows: db.all(reads.rows, accountId, afterSeq, endSeq ?? Number.MAX_SAFE_INTEGER, limit),
    toEntry: reads.toEntry,
    deliveries: reads.deliveries,
    limit,
    headSeq: headSeq(db, accountId),
  });
}

/** Expires open calls (pending or answered) due at `now`, erasing their ciphertext. */
export function expireCalls(db: SqliteDatabase, now: number): StreamEntry[] {
  return db.transaction(() => {
    const due = db.all(
      "SELECT account_id, event_id, status FROM events WHERE expires_at IS NOT NULL AND expires_at <= ? LIMIT ?",
      now,
      EXPIRY_BATCH_MAX,
    );
    return due.map((row): StreamEntry => {
      const accountId = text(row.account_id);
      const eventId = text(row.event_id);
      db.run(CALL_SQL.expireCall, now, accountId, eventId);
      const seq = nextSeq(db, accountId);
      const entry = expiredCallEntry(accountId, eventId, seq, now);
      appendStatusEntry(db, entry, now);
      return entry;
    });
  });
}

/** Forgets ended calls older than `before` (kept until then so a late retry of the same event stays idempotent). */
export function pruneCalls(db: SqliteDatabase, before: number): void {
  db.run(CALL_SQL.pruneCalls, before);
  db.run(CALL_SQL.pruneEntries, before);
}

/**
 * The account's calls that still hold ciphertext, its queued replies, and both's bytes: from the `events_open_usage`
 * and `replies_queued_usage` indexes alone.
 */
export function accountUsage(db: SqliteDatabase, accountId: string): AccountUsage {
  const calls = db.get(
    `SELECT COUNT(*) AS n, COALESCE(SUM(sealed_bytes), 0) AS bytes FROM events
     WHERE account_id = ? AND expires_at IS NOT NULL`,
    accountId,
  );
  const replies = db.get(
    `SELECT COUNT(*) AS n, COALESCE(SUM(sealed_bytes), 0) AS bytes FROM replies
     WHERE account_id = ? AND status = 'queued'`,
    accountId,
  );
  return {
    openCalls: integer(calls?.n),
    queuedReplies: integer(replies?.n),
    sealedBytes: integer(calls?.bytes) + integer(replies?.bytes),
  };
}
