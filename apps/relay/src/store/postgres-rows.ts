import { integer, notify, type Queries } from "./postgres-database.js";
import type { StreamEntry } from "./store.js";

/**
 * Takes the account's next sequence number. The UPDATE holds the account's row lock until the transaction ends,
 * so seqs of one account commit in order: whoever sees seq n committed also sees every seq below it.
 */
export async function nextSeq(db: Queries, accountId: string): Promise<number> {
  const [row] =
    await db`UPDATE accounts SET last_seq = last_seq + 1 WHERE id = ${accountId} RETURNING last_seq`;
  if (!row) throw new Error("The account does not exist.");
  return integer(row.last_seq);
}

export async function headSeq(db: Queries, accountId: string): Promise<number> {
  const [row] = await db`SELECT last_seq FROM accounts WHERE id = ${accountId}`;
  return row ? integer(row.last_seq) : 0;
}

/** Appends a status entry (call-status or reply-status) to the account's stream. */
export async function appendStatusEntry(
  db: Queries,
  entry: (StreamEntry & { kind: "call-status" }) | (StreamEntry & { kind: "reply-status" }),
  now: number,
): Promise<void> {
  await db`INSERT INTO stream_entries (account_id, seq, kind, event_id, change, created_at)
    VALUES (${entry.accountId}, ${entry.seq}, ${entry.kind}, ${entry.change.eventId}, ${JSON.stringify(entry.change)}, ${now})`;
}

/**
 * Tells every instance which accounts' streams grew (ids and the newest seq only); call inside the transaction
 * that wrote the entries, so the notice goes out exactly when they commit.
 */
export async function notifyEntries(
  db: Queries,
  channel: string,
  entries: readonly StreamEntry[],
): Promise<void> {
  const newest = new Map<string, number>();
  for (const entry of entries)
    newest.set(entry.accountId, Math.max(newest.get(entry.accountId) ?? 0, entry.seq));
  for (const [accountId, seq] of newest) await notify(db, channel, { t: "entries", a: accountId, s: seq });
}
