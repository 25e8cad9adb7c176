import {
  DELIVERY_QUERIES,
  DELIVERY_SQL,
  type DeliveryEntry,
  deliveryParameters,
  recordedDelivery,
} from "./delivery-rows.js";
import { type PostgresDatabase, type Queries, query, read } from "./postgres-database.js";
import { nextSeq, notifyEntries } from "./postgres-rows.js";
import type { NewDelivery, RecordDeliveryOutcome } from "./store.js";

/** Thrown inside a transaction to roll it back (its seq too) when another instance recorded the outcome first. */
class DeliveryExists extends Error {}

export async function recordDelivery(
  pg: PostgresDatabase,
  input: NewDelivery,
): Promise<RecordDeliveryOutcome> {
  const known = await read(pg.sql, DELIVERY_QUERIES.find(input));
  if (known) return { kind: "repeat", delivery: known };
  try {
    return await pg.transaction(async (tx) => {
      // KEY SHARE keeps the call's row from being pruned under the new record, and lets status changes go on.
      const parameters = deliveryParameters(input);
      const [call] = await query(tx, `${DELIVERY_SQL.call} FOR KEY SHARE`, parameters.call);
      const [row] = await query(tx, DELIVERY_SQL.device, parameters.device);
      if (!call || !row) return { kind: "not_found" as const };
      const delivery = recordedDelivery(input, row, await nextSeq(tx, input.accountId));
      // The primary key decides between instances recording the same outcome at once.
      const inserted = await query(
        tx,
        `${DELIVERY_SQL.insert} ON CONFLICT DO NOTHING RETURNING seq`,
        delivery.parameters,
      );
      if (inserted.length === 0) throw new DeliveryExists();
      await notifyEntries(tx, pg.channel, [delivery.entry]);
      return { kind: "created" as const, entry: delivery.entry };
    });
  } catch (error) {
    if (!(error instanceof DeliveryExists)) throw error;
    // The conflicting record has committed by now (the insert waited for it): answer with it.
    const existing = await read(pg.sql, DELIVERY_QUERIES.find(input));
    if (!existing) throw new Error("The delivery conflicted but is not stored.");
    return { kind: "repeat", delivery: existing };
  }
}

/**
 * The account's delivery records after `afterSeq`, in seq order, at most `limit` (all with null); call inside the
 * stream read's snapshot.
 */
export function deliveriesSince(
  db: Queries,
  accountId: string,
  afterSeq: number,
  limit: number | null = null,
): Promise<DeliveryEntry[]> {
  return read(db, DELIVERY_QUERIES.since(accountId, afterSeq, limit));
}

/**
 * The delivery records of the account's open calls after `afterSeq`, in seq order, at most `limit` (all with null);
 * call inside the stream read's snapshot.
 */
export function openCallDeliveries(
  db: Queries,
  accountId: string,
  afterSeq = 0,
  limit: number | null = null,
): Promise<DeliveryEntry[]> {
  return read(db, DELIVERY_QUERIES.openCallsSince(accountId, afterSeq, limit));
}
