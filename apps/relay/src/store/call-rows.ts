import {
  CallRing,
  CallStatus,
  CallStatusChange,
  type RelayedEvent,
  ReplyStatusChange,
  ReportSource,
} from "@ringback/protocol";
import { integer, type Row, text, textOrNull } from "./columns.js";
import { type DeliveryEntry, mergeBySeq } from "./delivery-rows.js";
import type {
  AppendEventResult,
  CallStatusInput,
  CallStatusOutcome,
  NewEvent,
  StreamEntry,
  StreamSnapshot,
} from "./store.js";
import { firstOrNull, storeQuery, storeWrite } from "./store-query.js";

/** The columns `toRelayedEvent` reads. */
const EVENT_COLUMNS =
  "e.account_id, e.event_id, e.seq, e.source, e.occurred_at, e.received_at, e.task_id, e.from_device_id, e.sealed, e.status, e.ring";

/**
 * The columns `toStreamEntry` reads from a `stream_entries` row `s` joined with its event `e`. A status row's event
 * is joined for nothing sealed: only a call's own row reads its ciphertext.
 */
const STREAM_COLUMNS = `s.account_id, s.seq, s.kind, s.change, e.event_id, e.source, e.occurred_at, e.received_at,
  e.task_id, e.from_device_id, CASE WHEN s.kind = 'call' THEN e.sealed END AS sealed, e.status, e.ring`;

/** The stream's join of each entry with its event (`s` and `e`). */
const STREAM_JOIN =
  "stream_entries s LEFT JOIN events e ON e.account_id = s.account_id AND e.event_id = s.event_id";
/** The account's open calls (ringing or answered, ciphertext kept) after a seq. */
const OPEN_AFTER = "e.account_id = ? AND e.seq > ? AND e.expires_at IS NOT NULL AND e.sealed IS NOT NULL";

/**
 * The event and stream statements both stores run as they are (`?` placeholders); a store adds only its own
 * locking or conflict clause. A page's `sizes` take (account, after seq, limit) and its `rows` (account, after seq,
 * end seq, limit).
 */
export const CALL_SQL = {
  existingEvent: "SELECT seq, from_device_id FROM events WHERE account_id = ? AND event_id = ?",
  sameTask: "SELECT 1 AS found FROM events WHERE account_id = ? AND task_id = ?",
  insertEvent: `INSERT INTO events (account_id, event_id, seq, source, occurred_at, received_at, task_id,
      from_device_id, sealed, sealed_bytes, status, expires_at, ring)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?, ?)`,
  insertCallEntry: `INSERT INTO stream_entries (account_id, seq, kind, event_id, change, created_at)
    VALUES (?, ?, 'call', ?, NULL, ?)`,
  call: `SELECT ${EVENT_COLUMNS} FROM events e WHERE e.account_id = ? AND e.event_id = ? AND e.sealed IS NOT NULL`,
  callStatus: "SELECT status, status_device_id FROM events WHERE account_id = ? AND event_id = ?",
  streamSince: `SELECT ${STREAM_COLUMNS} FROM ${STREAM_JOIN} WHERE s.account_id = ? AND s.seq > ? ORDER BY s.seq`,
  openCalls: `SELECT ${EVENT_COLUMNS} FROM events e
    WHERE e.account_id = ? AND e.expires_at IS NOT NULL AND e.sealed IS NOT NULL ORDER BY e.seq`,
  streamPage: {
    sizes: `SELECT s.seq, CASE WHEN s.kind = 'call' AND e.sealed IS NOT NULL THEN e.sealed_bytes ELSE 0 END AS bytes
      FROM ${STREAM_JOIN} WHERE s.account_id = ? AND s.seq > ? ORDER BY s.seq LIMIT ?`,
    rows: `SELECT ${STREAM_COLUMNS} FROM ${STREAM_JOIN}
      WHERE s.account_id = ? AND s.seq > ? AND s.seq <= ? ORDER BY s.seq LIMIT ?`,
  },
  openCallsPage: {
    sizes: `SELECT e.seq, e.sealed_bytes AS bytes FROM events e WHERE ${OPEN_AFTER} ORDER BY e.seq LIMIT ?`,
    rows: `SELECT ${EVENT_COLUMNS} FROM events e WHERE ${OPEN_AFTER} AND e.seq <= ? ORDER BY e.seq LIMIT ?`,
  },
  expireCall: `UPDATE events SET status = 'expired', status_device_id = NULL, status_at = ?, sealed = NULL,
      expires_at = NULL
    WHERE account_id = ? AND event_id = ?`,
  pruneCalls: "DELETE FROM events WHERE expires_at IS NULL AND status_at < ?",
  pruneEntries: "DELETE FROM stream_entries WHERE created_at < ?",
} as const;

/** The event reads and writes both stores run the same way. */
export const CALL_QUERIES = {
  /** What a post of an event already stored gets; null for a new one. */
  existing: (input: NewEvent) =>
    storeQuery(CALL_SQL.existingEvent, [input.accountId, input.eventId], ([row]) =>
      row ? existingEventOutcome(row, input) : null,
    ),
  /** Whether a call of this tracker task (`input.taskId`, not null) was rung already. */
  sameTask: (input: NewEvent & { taskId: string }) =>
    storeQuery(CALL_SQL.sameTask, [input.accountId, input.taskId], (rows) => rows.length > 0),
  insertCallEntry: (input: NewEvent, seq: number) =>
    storeWrite(CALL_SQL.insertCallEntry, [input.accountId, seq, input.eventId, input.receivedAt]),
  call: (accountId: string, eventId: string) =>
    storeQuery(CALL_SQL.call, [accountId, eventId], firstOrNull(toRelayedEvent)),
  callStatus: (input: CallStatusInput) =>
    storeQuery(CALL_SQL.callStatus, [input.accountId, input.eventId], ([row]): Row | undefined => row),
  expire: (accountId: string, eventId: string, now: number) =>
    storeWrite(CALL_SQL.expireCall, [now, accountId, eventId]),
  /** Forgets ended calls older than `before` (kept until then so a late retry of the same event stays idempotent). */
  prune: (before: number) => [
    storeWrite(CALL_SQL.pruneCalls, [before]),
    storeWrite(CALL_SQL.pruneEntries, [before]),
  ],
} as const;

/** A page's reads: `sizes` (account, after seq, limit), `rows` (account, after seq, end seq, limit), each row's entry. */
export interface PageReads {
  readonly sizes: string;
  readonly rows: string;
  readonly toEntry: (row: Row) => StreamEntry | null;
}

/** The stream's page reads, and the account's open calls'. */
export const CALL_PAGES = {
  stream: { ...CALL_SQL.streamPage, toEntry: toStreamEntry },
  openCalls: (accountId: string): PageReads => ({
    ...CALL_SQL.openCallsPage,
    toEntry: (row) => toOpenCallEntry(accountId, row),
  }),
} as const;

/** The parameters of `CALL_SQL.insertEvent`. */
export function eventParameters(input: NewEvent, seq: number): (string | number | null)[] {
  return [
    input.accountId,
    input.eventId,
    seq,
    input.source,
    input.occurredAt,
    input.receivedAt,
    input.taskId,
    input.fromDeviceId,
    input.sealed,
    Buffer.byteLength(input.sealed),
    input.expiresAt,
    input.ring ?? "ring",
  ];
}

/**
 * A post of an event already stored (its `existingEvent` row): the same computer retrying is idempotent; another
 * computer with the same id (a tracker task's id) is not.
 */
function existingEventOutcome(existing: Row, input: NewEvent): AppendEventResult {
  if (text(existing.from_device_id) !== input.fromDeviceId) return { kind: "duplicate_task" };
  return { kind: "repeat", seq: integer(existing.seq) };
}

/** Whether a status write may change the call as its `callStatus` row has it: the first answer wins. */
export function mayChangeCallStatus(row: Row, input: CallStatusInput): boolean {
  const current = text(row.status);
  const isHolder = textOrNull(row.status_device_id) === input.deviceId;
  return current === "pending" || (current === "answered" && isHolder && input.status !== "answered");
}

/** Why a status write changes nothing, from the call's `callStatus` row as it is now (none: no such call). */
export function callStatusRefusal(row: Row | undefined, input: CallStatusInput): CallStatusOutcome {
  if (!row) return { kind: "not_found" };
  const current = CallStatus.parse(row.status);
  if (current === input.status && textOrNull(row.status_device_id) === input.deviceId) {
    return { kind: "repeat", status: current };
  }
  if (current === "answered" || input.status === "answered")
    return { kind: "already_answered", status: current };
  return { kind: "already_ended", status: current };
}

/** The stream after a seq from its `streamSince` rows, with the delivery records read in the same snapshot. */
export function streamSnapshot(
  rows: readonly Row[],
  deliveries: readonly DeliveryEntry[],
  headSeq: number,
): StreamSnapshot {
  const entries = rows.map(toStreamEntry).filter((entry): entry is StreamEntry => entry !== null);
  return { entries: mergeBySeq(entries, deliveries), headSeq };
}

/** The account's open calls from their `openCalls` rows, with their delivery records. */
export function openCallsSnapshot(
  accountId: string,
  rows: readonly Row[],
  deliveries: readonly DeliveryEntry[],
  headSeq: number,
): StreamSnapshot {
  const entries = rows.map((row) => toOpenCallEntry(accountId, row));
  return { entries: mergeBySeq(entries, deliveries), headSeq };
}

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
    ...quietMark(input.ring),
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

function toRelayedEvent(row: Row): RelayedEvent {
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
    ...quietMark(CallRing.parse(row.ring)),
  };
}

/** A quiet call says so; a ringing one carries no mark, as from relays older than quiet calls. */
function quietMark(ring: CallRing | undefined): Pick<RelayedEvent, "ring"> {
  return ring === "quiet" ? { ring: "quiet" } : {};
}

/** A call still open (ringing or answered, its ciphertext kept) as the stream entry that brings it. */
function toOpenCallEntry(accountId: string, row: Row): StreamEntry {
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

/** A stored stream row (joined with its event) as an entry; null for a call whose ciphertext was erased. */
function toStreamEntry(row: Row): StreamEntry | null {
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
