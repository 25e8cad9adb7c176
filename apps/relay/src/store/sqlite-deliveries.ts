import { DELIVERY_QUERIES, DELIVERY_SQL, deliveryParameters, recordedDelivery } from "./delivery-rows.js";
import type { SqliteDatabase } from "./sqlite-database.js";
import { nextSeq } from "./sqlite-rows.js";
import type { NewDelivery, RecordDeliveryOutcome } from "./store.js";

export function recordDelivery(db: SqliteDatabase, input: NewDelivery): RecordDeliveryOutcome {
  // A plain read first: a repeat (every push of a call after its first) never takes the write lock.
  const known = db.read(DELIVERY_QUERIES.find(input));
  if (known) return { kind: "repeat", delivery: known };
  return db.transaction(() => {
    const existing = db.read(DELIVERY_QUERIES.find(input));
    if (existing) return { kind: "repeat", delivery: existing };
    const parameters = deliveryParameters(input);
    const call = db.get(DELIVERY_SQL.call, ...parameters.call);
    const row = db.get(DELIVERY_SQL.device, ...parameters.device);
    if (!call || !row) return { kind: "not_found" };
    const delivery = recordedDelivery(input, row, nextSeq(db, input.accountId));
    // The primary key refuses a second record of the same outcome, whichever process writes it.
    db.run(DELIVERY_SQL.insert, ...delivery.parameters);
    return { kind: "created", entry: delivery.entry };
  });
}

/** No limit on a read: every row. */
const ALL_ROWS = -1;

/**
 * The account's delivery records after `afterSeq`, in seq order, at most `limit` (all without); call inside the
 * stream read's snapshot.
 */
export function deliveriesSince(db: SqliteDatabase, accountId: string, afterSeq: number, limit = ALL_ROWS) {
  return db.read(DELIVERY_QUERIES.since(accountId, afterSeq, limit));
}

/**
 * The delivery records of the account's open calls after `afterSeq`, in seq order, at most `limit` (all without);
 * call inside the stream read's snapshot.
 */
export function openCallDeliveries(db: SqliteDatabase, accountId: string, afterSeq = 0, limit = ALL_ROWS) {
  return db.read(DELIVERY_QUERIES.openCallsSince(accountId, afterSeq, limit));
}
