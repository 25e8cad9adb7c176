import type { CallDelivery } from "@ringback/protocol";
import {
  DELIVERY_SQL,
  type DeliveryEntry,
  deliveryParameters,
  insertDeliveryParameters,
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
    const parameters = deliveryParameters(input);
    const call = db.get(DELIVERY_SQL.call, ...parameters.call);
    const row = db.get(DELIVERY_SQL.device, ...parameters.device);
    if (!call || !row) return { kind: "not_found" };
    const seq = nextSeq(db, input.accountId);
    const device = toDeliveryDevice(row);
    // The primary key refuses a second record of the same outcome, whichever process writes it.
    db.run(DELIVERY_SQL.insert, ...insertDeliveryParameters(input, device, seq));
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
  return db.all(DELIVERY_SQL.since, accountId, afterSeq, limit).map(toDeliveryEntry);
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
  return db.all(DELIVERY_SQL.openCallsSince, accountId, afterSeq, limit).map(toDeliveryEntry);
}

function findDelivery(db: SqliteDatabase, input: NewDelivery): CallDelivery | null {
  const row = db.get(DELIVERY_SQL.find, ...deliveryParameters(input).find);
  return row ? toCallDelivery(row) : null;
}
