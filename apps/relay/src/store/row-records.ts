import {
  CallStatus,
  CallStatusChange,
  DeviceKind,
  type RelayedEvent,
  ReplyStatusChange,
  ReportSource,
} from "@ringback/protocol";
import { integer, integerOrNull, text, textOrNull } from "./columns.js";
import type { CallStatusInput, DeviceRecord, NewEvent, StreamEntry } from "./store.js";

/** A result row of either store: both name their columns the same. */
export type Row = Readonly<Record<string, unknown>>;

/** The `relay_settings` row holding the hash of the claim code that creates the first account. */
export const CLAIM_CODE_SETTING = "claim_code_hash";

/** The columns `toRelayedEvent` reads. */
export const EVENT_COLUMNS =
  "e.account_id, e.event_id, e.seq, e.source, e.occurred_at, e.received_at, e.task_id, e.from_device_id, e.sealed, e.status";

/** The stream entry of a new event just stored with `seq` (pending, ringing). */
export function newCallEntry(input: NewEvent, seq: number): StreamEntry & { kind: "call" } {
  const event: RelayedEvent = {
    seq,
    eventId: input.eventId,
    source: input.source,
    occurredAt: input.occurredAt,
    receivedAt: new Date(input.receivedAt).toISOString(),
    taskId: input.taskId,
    fromDeviceId: input.fromDeviceId,
    sealed: input.sealed,
    status: "pending",
  };
  return { kind: "call", accountId: input.accountId, seq, event };
}

/** The stream entry of a call's status change just stored with `seq`. */
export function callStatusEntry(input: CallStatusInput, seq: number): StreamEntry & { kind: "call-status" } {
  return {
    kind: "call-status",
    accountId: input.accountId,
    seq,
    change: {
      seq,
      eventId: input.eventId,
      status: input.status,
      deviceId: input.deviceId,
      at: new Date(input.now).toISOString(),
    },
  };
}

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

/** A call still open (ringing or answered, its ciphertext kept) as the stream entry that brings it. */
export function toOpenCallEntry(accountId: string, row: Row): StreamEntry {
  const event = toRelayedEvent(row);
  return { kind: "call", accountId, seq: event.seq, event };
}

/** The stream entry of a call that expired at `now`, stored with `seq`. */
export function expiredCallEntry(
  accountId: string,
  eventId: string,
  seq: number,
  now: number,
): StreamEntry & { kind: "call-status" } {
  return {
    kind: "call-status",
    accountId,
    seq,
    change: { seq, eventId, status: "expired", deviceId: null, at: new Date(now).toISOString() },
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
 * The columns `toStreamEntry` reads from a `stream_entries` row `s` joined with its event `e`. A status row's event
 * is joined for nothing sealed: only a call's own row reads its ciphertext.
 */
export const STREAM_COLUMNS = `s.account_id, s.seq, s.kind, s.change, e.event_id, e.source, e.occurred_at, e.received_at,
  e.task_id, e.from_device_id, CASE WHEN s.kind = 'call' THEN e.sealed END AS sealed, e.status`;

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
