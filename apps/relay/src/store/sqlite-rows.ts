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
  type Row,
  type SqliteDatabase,
  text,
  textOrNull,
} from "./sqlite-database.js";
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
