import type { CallDelivery } from "@ringback/protocol";
import {
  DELIVERY_COLUMNS,
  type DeliveryEntry,
  newDeliveryEntry,
  toCallDelivery,
  toDeliveryDevice,
  toDeliveryEntry,
} from "./delivery-rows.js";
import type { PostgresDatabase, Queries } from "./postgres-database.js";
import { nextSeq, notifyEntries } from "./postgres-rows.js";
import type { NewDelivery, RecordDeliveryOutcome } from "./store.js";

/** Thrown inside a transaction to roll it back (its seq too) when another instance recorded the outcome first. */
class DeliveryExists extends Error {}

export async function recordDelivery(
  pg: PostgresDatabase,
  input: NewDelivery,
): Promise<RecordDeliveryOutcome> {
  const known = await findDelivery(pg.sql, input);
  if (known) return { kind: "repeat", delivery: known };
  try {
    return await pg.transaction(async (tx) => {
      // KEY SHARE keeps the call's row from being pruned under the new record, and lets status changes go on.
      const [call] = await tx`SELECT 1 AS found FROM events
        WHERE account_id = ${input.accountId} AND event_id = ${input.eventId} FOR KEY SHARE`;
      const [row] = await tx`SELECT name, kind FROM devices
        WHERE id = ${input.deviceId} AND account_id = ${input.accountId}`;
      if (!call || !row) return { kind: "not_found" as const };
      const seq = await nextSeq(tx, input.accountId);
      const device = toDeliveryDevice(row);
      // The primary key decides between instances recording the same outcome at once.
      const inserted = await tx`INSERT INTO call_deliveries (account_id, event_id, device_id, outcome, seq,
          device_name, device_kind, at)
        VALUES (${input.accountId}, ${input.eventId}, ${input.deviceId}, ${input.outcome}, ${seq},
          ${device.name}, ${device.kind}, ${input.now})
        ON CONFLICT DO NOTHING RETURNING seq`;
      if (inserted.length === 0) throw new DeliveryExists();
      const entry = newDeliveryEntry(input, device, seq);
      await notifyEntries(tx, pg.channel, [entry]);
      return { kind: "created" as const, entry };
    });
  } catch (error) {
    if (!(error instanceof DeliveryExists)) throw error;
    // The conflicting record has committed by now (the insert waited for it): answer with it.
    const existing = await findDelivery(pg.sql, input);
    if (!existing) throw new Error("The delivery conflicted but is not stored.");
    return { kind: "repeat", delivery: existing };
  }
}

/**
 * The account's delivery records after `afterSeq`, in seq order, at most `limit` (all with null); call inside the
 * stream read's snapshot.
 */
export async function deliveriesSince(
  db: Queries,
  accountId: string,
  afterSeq: number,
  limit: number | null = null,
): Promise<DeliveryEntry[]> {
  const rows = await db`SELECT ${db.unsafe(DELIVERY_COLUMNS)} FROM call_deliveries d
    WHERE d.account_id = ${accountId} AND d.seq > ${afterSeq} ORDER BY d.seq LIMIT ${limit}`;
  return rows.map(toDeliveryEntry);
}

/**
 * The delivery records of the account's open calls after `afterSeq`, in seq order, at most `limit` (all with null);
 * call inside the stream read's snapshot.
 */
export async function openCallDeliveries(
  db: Queries,
  accountId: string,
  afterSeq = 0,
  limit: number | null = null,
): Promise<DeliveryEntry[]> {
  const rows = await db`SELECT ${db.unsafe(DELIVERY_COLUMNS)} FROM call_deliveries d
    JOIN events e ON e.account_id = d.account_id AND e.event_id = d.event_id
    WHERE d.account_id = ${accountId} AND d.seq > ${afterSeq} AND e.expires_at IS NOT NULL AND e.sealed IS NOT NULL
    ORDER BY d.seq LIMIT ${limit}`;
  return rows.map(toDeliveryEntry);
}

async function findDelivery(db: Queries, input: NewDelivery): Promise<CallDelivery | null> {
  const [row] = await db`SELECT ${db.unsafe(DELIVERY_COLUMNS)} FROM call_deliveries d
    WHERE d.account_id = ${input.accountId} AND d.event_id = ${input.eventId}
      AND d.device_id = ${input.deviceId} AND d.outcome = ${input.outcome}`;
  return row ? toCallDelivery(row) : null;
}
