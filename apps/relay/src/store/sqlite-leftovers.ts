import { type SqliteDatabase, text } from "./sqlite-database.js";

/*
 * What a removed device, and an account whose devices are all gone, leave behind: deleted once the retention has
 * passed since the removal, the time history is kept for (ended calls, the stream log). postgres-leftovers.ts does
 * the same on PostgreSQL.
 */

/** Devices removed before the cut-off, as a subquery (their rows are deleted last). */
const PRUNED_DEVICES = "SELECT id FROM devices WHERE removed_at IS NOT NULL AND removed_at < ?";

/**
 * Everything of devices removed before `before`: their delivery records (and the names they carry), the settled
 * replies they sent or were sent, their id on calls they answered, the ended calls a removed computer posted, any
 * push or pairing row left, then the device rows themselves. Call inside `pruneBefore`'s transaction.
 */
export function pruneRemovedDevices(db: SqliteDatabase, before: number): void {
  db.run(`DELETE FROM call_deliveries WHERE device_id IN (${PRUNED_DEVICES})`, before);
  db.run(
    `DELETE FROM replies WHERE status <> 'queued'
       AND (from_device_id IN (${PRUNED_DEVICES}) OR to_device_id IN (${PRUNED_DEVICES}))`,
    before,
    before,
  );
  db.run(`UPDATE events SET status_device_id = NULL WHERE status_device_id IN (${PRUNED_DEVICES})`, before);
  // A removed computer's calls that ended: their stream entries and the records of other devices go with them.
  const postedCalls = `SELECT account_id, event_id FROM events
    WHERE expires_at IS NULL AND from_device_id IN (${PRUNED_DEVICES})`;
  db.run(`DELETE FROM stream_entries WHERE (account_id, event_id) IN (${postedCalls})`, before);
  db.run(`DELETE FROM push_deliveries WHERE (account_id, event_id) IN (${postedCalls})`, before);
  db.run(`DELETE FROM events WHERE expires_at IS NULL AND from_device_id IN (${PRUNED_DEVICES})`, before);
  db.run(`DELETE FROM push_subscriptions WHERE device_id IN (${PRUNED_DEVICES})`, before);
  db.run(`DELETE FROM push_deliveries WHERE device_id IN (${PRUNED_DEVICES})`, before);
  db.run(`DELETE FROM pairing_codes WHERE created_by IN (${PRUNED_DEVICES})`, before);
  db.run("DELETE FROM devices WHERE removed_at IS NOT NULL AND removed_at < ?", before);
  pruneClosedAccounts(db);
}

/**
 * Accounts with no device left at all (every one removed, and pruned after the retention): nobody can reach them
 * again, so they go, with whatever calls, replies and stream history they still hold.
 */
function pruneClosedAccounts(db: SqliteDatabase): void {
  const closed = db
    .all("SELECT id FROM accounts a WHERE NOT EXISTS (SELECT 1 FROM devices d WHERE d.account_id = a.id)")
    .map((row) => text(row.id));
  for (const accountId of closed) {
    for (const table of ACCOUNT_TABLES) db.run(`DELETE FROM ${table} WHERE account_id = ?`, accountId);
    db.run("DELETE FROM accounts WHERE id = ?", accountId);
  }
}

/** An account's rows, children before the rows they reference. */
const ACCOUNT_TABLES = [
  "key_rotations",
  "call_deliveries",
  "push_deliveries",
  "push_subscriptions",
  "replies",
  "stream_entries",
  "events",
  "pairing_codes",
] as const;
