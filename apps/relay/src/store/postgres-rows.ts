import {
  CallStatus,
  CallStatusChange,
  DeviceKind,
  type RelayedEvent,
  ReplyStatusChange,
  ReportSource,
} from "@ringback/protocol";
import {
  integer,
  integerOrNull,
  notify,
  type Queries,
  type Row,
  text,
  textOrNull,
} from "./postgres-database.js";
import type { DeviceRecord, StreamEntry } from "./store.js";

/** The columns `toRelayedEvent` reads. */
export const EVENT_COLUMNS =
  "e.account_id, e.event_id, e.seq, e.source, e.occurred_at, e.received_at, e.task_id, e.from_device_id, e.sealed, e.status";

export function toRelayedEvent(row: Row): RelayedEvent {
  return {
    seq: integer(row.seq),
    eventId: text(row.event_id),
    source: ReportSource.parse(row.source),
    occurredAt: text(row.occurred_at),
    receivedAt: new Date(integer(row.received_at)).toISOString(),
    taskId: textOrNull(row.task_id),
    fromDeviceId: text(row.from_device_id),
    sealed: text(row.sealed),
    status: CallStatus.parse(row.status),
  };
}

export const DEVICE_COLUMNS = "id, account_id, name, kind, created_at, last_seen_at";

export function toDeviceRecord(row: Row): DeviceRecord {
  return {
    id: text(row.id),
    accountId: text(row.account_id),
    name: text(row.name),
    kind: DeviceKind.parse(row.kind),
    createdAt: integer(row.created_at),
    lastSeenAt: integerOrNull(row.last_seen_at),
  };
}

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

/** A stored stream row (joined with its event) as an entry; null for a call whose ciphertext was erased. */
export function toStreamEntry(row: Row): StreamEntry | null {
  const kind = text(row.kind);
  const accountId = text(row.account_id);
  const seq = integer(row.seq);
  if (kind === "call") {
    if (row.sealed === null || row.sealed === undefined) return null;
    return { kind, accountId, seq, event: toRelayedEvent(row) };
  }
  const change: unknown = JSON.parse(text(row.change));
  if (kind === "call-status") return { kind, accountId, seq, change: CallStatusChange.parse(change) };
  if (kind === "reply-status") return { kind, accountId, seq, change: ReplyStatusChange.parse(change) };
  throw new Error(`Unknown stream entry kind "${kind}".`);
}
