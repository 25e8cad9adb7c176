import { integer, type SqliteDatabase } from "./sqlite-database.js";
import type { StreamEntry } from "./store.js";

/** Takes the account's next sequence number; call inside a write transaction. */
export function nextSeq(db: SqliteDatabase, accountId: string): number {
  const row = db.get(
    "UPDATE accounts SET last_seq = last_seq + 1 WHERE id = ? RETURNING last_seq",
    accountId,
  );
  if (!row) throw new Error("The account does not exist.");
  return integer(row.last_seq);
}

export function headSeq(db: SqliteDatabase, accountId: string): number {
  return integer(db.get("SELECT last_seq FROM accounts WHERE id = ?", accountId)?.last_seq ?? 0);
}

/** Appends a status entry (call-status or reply-status) to the account's stream. */
export function appendStatusEntry(
  db: SqliteDatabase,
  entry: (StreamEntry & { kind: "call-status" }) | (StreamEntry & { kind: "reply-status" }),
  now: number,
): void {
  db.run(
    "INSERT INTO stream_entries (account_id, seq, kind, event_id, change, created_at) VALUES (?, ?, ?, ?, ?, ?)",
    entry.accountId,
    entry.seq,
    entry.kind,
    entry.change.eventId,
    JSON.stringify(entry.change),
    now,
  );
}
