import { type Queries, text } from "./postgres-database.js";

/*
 * What a removed device, and an account whose devices are all gone, leave behind: deleted once the retention has
 * passed since the removal. The same as sqlite-leftovers.ts, on PostgreSQL.
 */

/**
 * Everything of devices removed before `before`: their delivery records (and the names they carry), the settled
 * replies they sent or were sent, their id on calls they answered, the ended calls a removed computer posted, any
 * push or pairing row left, then the device rows themselves. Call inside `pruneBefore`'s transaction.
 */
export async function pruneRemovedDevices(db: Queries, before: number): Promise<void> {
  const pruned = (
    await db`SELECT id FROM devices WHERE removed_at IS NOT NULL AND removed_at < ${before}`
  ).map((row) => text(row.id));
  if (pruned.length > 0) {
    await db`DELETE FROM call_deliveries WHERE device_id = ANY(${pruned})`;
    await db`DELETE FROM replies WHERE status <> 'queued'
      AND (from_device_id = ANY(${pruned}) OR to_device_id = ANY(${pruned}))`;
    await db`UPDATE events SET status_device_id = NULL WHERE status_device_id = ANY(${pruned})`;
    // A removed computer's calls that ended: their stream entries and the records of other devices go with them.
    const posted = await db`SELECT account_id, event_id FROM events
      WHERE expires_at IS NULL AND from_device_id = ANY(${pruned})`;
    for (const call of posted) {
      await db`DELETE FROM stream_entries WHERE account_id = ${call.account_id} AND event_id = ${call.event_id}`;
      await db`DELETE FROM push_deliveries WHERE account_id = ${call.account_id} AND event_id = ${call.event_id}`;
    }
    await db`DELETE FROM events WHERE expires_at IS NULL AND from_device_id = ANY(${pruned})`;
    await db`DELETE FROM push_subscriptions WHERE device_id = ANY(${pruned})`;
    await db`DELETE FROM push_deliveries WHERE device_id = ANY(${pruned})`;
    await db`DELETE FROM pairing_codes WHERE created_by = ANY(${pruned})`;
    await db`DELETE FROM devices WHERE id = ANY(${pruned})`;
  }
  await pruneClosedAccounts(db);
}

/**
 * Accounts with no device left at all (every one removed, and pruned after the retention): nobody can reach them
 * again, so they go, with whatever calls, replies and stream history they still hold.
 */
async function pruneClosedAccounts(db: Queries): Promise<void> {
  const closed = (
    await db`SELECT id FROM accounts a WHERE NOT EXISTS (SELECT 1 FROM devices d WHERE d.account_id = a.id)`
  ).map((row) => text(row.id));
  if (closed.length === 0) return;
  await db`DELETE FROM key_rotations WHERE account_id = ANY(${closed})`;
  await db`DELETE FROM call_deliveries WHERE account_id = ANY(${closed})`;
  await db`DELETE FROM push_deliveries WHERE account_id = ANY(${closed})`;
  await db`DELETE FROM push_subscriptions WHERE account_id = ANY(${closed})`;
  await db`DELETE FROM replies WHERE account_id = ANY(${closed})`;
  await db`DELETE FROM stream_entries WHERE account_id = ANY(${closed})`;
  await db`DELETE FROM events WHERE account_id = ANY(${closed})`;
  await db`DELETE FROM pairing_codes WHERE account_id = ANY(${closed})`;
  await db`DELETE FROM accounts WHERE id = ANY(${closed})`;
}
