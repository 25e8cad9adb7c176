import type { CallDelivery } from "@ringback/protocol";
import {
  DELIVERY_COLUMNS,
  type DeliveryEntry,
  newDeliveryEntry,
  toCallDelivery,
  toDeliveryDevice,
  toDeliveryEntry,
} from "./delivery-rows.js";
import type { SqliteDatabase } from "./sqlite-database.js";
import { nextSeq } from "./sqlite-rows.js";
import type { NewDelivery, RecordDeliveryOutcome } from "./store.js";

export function recordDelivery(db: SqliteDatabase, input: NewDelivery): RecordDeliveryOutcome {
  // A plain read first: a repeat (every push of a call after its first) never takes the write lock.
  const known = findDelivery(db, input);
  if (known) return { kind: "repeat", delivery: known };
  return db.transaction(() => {
    const existing = findDelivery(db, input);
    if (existing) return { kind: "repeat", delivery: existing };
    const call = db.get(
      "SELECT 1 AS found FROM events WHERE account_id = ? AND event_id = ?",
      input.accountId,
      input.eventId,
    );
    const row = db.get(
      "SELECT name, kind FROM devices WHERE id = ? AND account_id = ?",
      input.deviceId,
      input.accountId,
    );
    if (!call || !row) return { kind: "not_found" };
    const seq = nextSeq(db, input.accountId);
    const device = toDeliveryDevice(row);
    // The primary key refuses a second record of the same outcome, whichever process writes it.
    db.run(
      `INSERT INTO call_deliveries (account_id, event_id, device_id, outcome, seq, device_name, device_kind, at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      input.accountId,
      input.eventId,
      input.deviceId,
      input.outcome,
      seq,
      device.name,
      device.kind,
      input.now,
    );
    return { kind: "created", entry: newDeliveryEntry(input, device, seq) };
  });
}

/** No limit on a read: every row. */
const ALL_ROWS = -1;

/**
 * The account's delivery records after `afterSeq`, in seq order, at most `limit` (all without); call inside the
 * stream read's snapshot.
 */
export function deliveriesSince(
  db: SqliteDatabase,
  accountId: string,
  afterSeq: number,
  limit = ALL_ROWS,
): DeliveryEntry[] {
  return db
    .all(
      `SELECT ${DELIVERY_COLUMNS} FROM call_deliveries d WHERE d.account_id = ? AND d.seq > ? ORDER BY d.seq LIMIT ?`,
      accountId,
      afterSeq,
      limit,
    )
    .map(toDeliveryEntry);
}

/**
 * The delivery records of the account's open calls after `afterSeq`, in seq order, at most `limit` (all without);
 * call inside the stream read's snapshot.
 */
export function openCallDeliveries(
  db: SqliteDatabase,
  accountId: string,
  afterSeq = 0,
  limit = ALL_ROWS,
): DeliveryEntry[] {
  return db
    .all(
      `SELECT ${DELIVERY_COLUMNS} FROM call_deliveries d
       JOIN events e ON e.account_id = d.account_id AND e.event_id = d.event_id
       WHERE d.account_id = ? AND d.seq > ? AND e.expires_at IS NOT NULL AND e.sealed IS NOT NULL
       ORDER BY d.seq LIMIT ?`,
      accountId,
      afterSeq,
      limit,
    )
    .map(toDeliveryEntry);
}

function findDelivery(db: SqliteDatabase, input: NewDelivery): CallDelivery | null {
  const row = db.get(
    `SELECT ${DELIVERY_COLUMNS} FROM call_deliveries d
     WHERE d.account_id = ? AND d.event_id = ? AND d.device_id = ? AND d.outcome = ?`,
    input.accountId,
    input.eventId,
    input.deviceId,
    input.outcome,
  );
  return row ? toCallDelivery(row) : null;
}
