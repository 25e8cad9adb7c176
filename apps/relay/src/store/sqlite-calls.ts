import { type CallStatus, isFinalCallStatus, type RelayedEvent } from "@ringback/protocol";
import { type DeliveryEntry, mergeBySeq } from "./delivery-rows.js";
import { eventFits } from "./event-quota.js";
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
import { integer, type SqliteDatabase, text, textOrNull } from "./sqlite-database.js";
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
    const existing = db.get(
      "SELECT seq, from_device_id FROM events WHERE account_id = ? AND event_id = ?",
      input.accountId,
      input.eventId,
    );
    if (existing) {
      // The same computer retrying is idempotent; another computer with the same id (a tracker task's id) is not.
      if (text(existing.from_device_id) !== input.fromDeviceId) return { kind: "duplicate_task" };
      return { kind: "repeat", seq: integer(existing.seq) };
    }
    if (input.taskId !== null) {
      const sameTask = db.get(
        "SELECT 1 AS found FROM events WHERE account_id = ? AND task_id = ?",
        input.accountId,
        input.taskId,
      );
      if (sameTask) return { kind: "duplicate_task" };
    }
    // The account's quota, in the insert's write transaction (with every event of a group commit before it).
    const usage = accountUsage(db, input.accountId);
    if (!eventFits(usage, input.limits, input.sealed)) return { kind: "full", usage };
    const seq = nextSeq(db, input.accountId);
    db.run(
      `INSERT INTO events (account_id, event_id, seq, source, occurred_at, received_at, task_id, from_device_id,
         sealed, sealed_bytes, status, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?)`,
      input.accountId,
      input.eventId,
      seq,
      input.source,
      input.occurredAt,
      input.receivedAt,
      input.taskId,
      input.fromDeviceId,
      input.sealed,
      Buffer.byteLength(input.sealed),
      input.expiresAt,
    );
    db.run(
      "INSERT INTO stream_entries (account_id, seq, kind, event_id, change, created_at) VALUES (?, ?, 'call', ?, NULL, ?)",
      input.accountId,
      seq,
      input.eventId,
      input.receivedAt,
    );
    schedulePushes(db, { ...input, now: input.receivedAt });
    return { kind: "created", entry: newCallEntry(input, seq) };
  });
}

export function getCall(db: SqliteDatabase, accountId: string, eventId: string): RelayedEvent | null {
  const row = db.get(
    `SELECT ${EVENT_COLUMNS} FROM events e WHERE e.account_id = ? AND e.event_id = ? AND e.sealed IS NOT NULL`,
    accountId,
    eventId,
  );
  return row ? toRelayedEvent(row) : null;
}

export function setCallStatus(db: SqliteDatabase, input: CallStatusInput): CallStatusOutcome {
  return db.transaction(() => {
    const row = db.get(
      "SELECT status, status_device_id FROM events WHERE account_id = ? AND event_id = ?",
      input.accountId,
      input.eventId,
    );
    if (!row) return { kind: "not_found" };
    const current = text(row.status) as CallStatus;
    const holder = textOrNull(row.status_device_id);
    const isHolder = holder === input.deviceId;
    if (current === "pending" || (current === "answered" && isHolder && input.status !== "answered")) {
      return changeStatus(db, input, current);
    }
    if (current === input.status && isHolder) return { kind: "repeat", status: current };
    if (current === "answered" || input.status === "answered")
      return { kind: "already_answered", status: current };
    return { kind: "already_ended", status: current };
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
  return db.snapshot(() => {
    const rows = db.all(
      `SELECT ${STREAM_COLUMNS} FROM stream_entries s
       LEFT JOIN events e ON e.account_id = s.account_id AND e.event_id = s.event_id
       WHERE s.account_id = ? AND s.seq > ? ORDER BY s.seq`,
      accountId,
      afterSeq,
    );
    const entries = rows.map(toStreamEntry).filter((entry): entry is StreamEntry => entry !== null);
    return {
      entries: mergeBySeq(entries, deliveriesSince(db, accountId, afterSeq)),
      headSeq: headSeq(db, accountId),
    };
  });
}

export function pendingCalls(db: SqliteDatabase, accountId: string): StreamSnapshot {
  return db.snapshot(() => {
    const rows = db.all(
      `SELECT ${EVENT_COLUMNS} FROM events e
       WHERE e.account_id = ? AND e.expires_at IS NOT NULL AND e.sealed IS NOT NULL ORDER BY e.seq`,
      accountId,
    );
    const entries = rows.map((row) => toOpenCallEntry(accountId, row));
    return {
      entries: mergeBySeq(entries, openCallDeliveries(db, accountId)),
      headSeq: headSeq(db, accountId),
    };
  });
}

export function streamPage(db: SqliteDatabase, page: PageRequest): StreamPage {
  const after = "s.account_id = ? AND s.seq > ?";
  const join = "LEFT JOIN events e ON e.account_id = s.account_id AND e.event_id = s.event_id";
  return db.snapshot(() =>
    pageWithin(db, page, {
      sizes: `SELECT s.seq, CASE WHEN s.kind = 'call' AND e.sealed IS NOT NULL THEN e.sealed_bytes ELSE 0 END AS bytes
        FROM stream_entries s ${join} WHERE ${after} ORDER BY s.seq LIMIT ?`,
      rows: `SELECT ${STREAM_COLUMNS} FROM stream_entries s ${join} WHERE ${after} AND s.seq <= ? ORDER BY s.seq LIMIT ?`,
      toEntry: toStreamEntry,
      deliveries: deliveriesSince(db, page.accountId, page.afterSeq, page.limit),
    }),
  );
}

export function pendingCallsPage(db: SqliteDatabase, page: PageRequest): StreamPage {
  const open = "e.account_id = ? AND e.seq > ? AND e.expires_at IS NOT NULL AND e.sealed IS NOT NULL";
  return db.snapshot(() =>
    pageWithin(db, page, {
      sizes: `SELECT e.seq, e.sealed_bytes AS bytes FROM events e WHERE ${open} ORDER BY e.seq LIMIT ?`,
      rows: `SELECT ${EVENT_COLUMNS} FROM events e WHERE ${open} AND e.seq <= ? ORDER BY e.seq LIMIT ?`,
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
      db.run(
        `UPDATE events SET status = 'expired', status_device_id = NULL, status_at = ?, sealed = NULL, expires_at = NULL
         WHERE account_id = ? AND event_id = ?`,
        now,
        accountId,
        eventId,
      );
      const seq = nextSeq(db, accountId);
      const entry = expiredCallEntry(accountId, eventId, seq, now);
      appendStatusEntry(db, entry, now);
      return entry;
    });
  });
}

/** Forgets ended calls older than `before` (kept until then so a late retry of the same event stays idempotent). */
export function pruneCalls(db: SqliteDatabase, before: number): void {
  db.run("DELETE FROM events WHERE expires_at IS NULL AND status_at < ?", before);
  db.run("DELETE FROM stream_entries WHERE created_at < ?", before);
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
