import { type CallDelivery, DeliveryOutcome, DeviceKind } from "@ringback/protocol";
import type { Row } from "./columns.js";
import { integer, text, textOrNull } from "./columns.js";
import type { NewDelivery, StreamEntry } from "./store.js";
import { firstOrNull, storeQuery } from "./store-query.js";

export type DeliveryEntry = StreamEntry & { kind: "call-delivery" };

/** The `call_deliveries` columns `toDeliveryEntry` reads, named `d` in a query. */
const DELIVERY_COLUMNS =
  "d.account_id, d.event_id, d.device_id, d.device_name, d.device_kind, d.outcome, d.seq, d.at";

/**
 * The delivery statements both stores run as they are (`?` placeholders); a store adds only its own locking or
 * conflict clause. The reads after a seq take (account, after seq, limit), each store passing its own "no limit".
 */
export const DELIVERY_SQL = {
  call: "SELECT 1 AS found FROM events WHERE account_id = ? AND event_id = ?",
  device: "SELECT name, kind FROM devices WHERE id = ? AND account_id = ?",
  insert: `INSERT INTO call_deliveries (account_id, event_id, device_id, outcome, seq, device_name, device_kind, at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  since: `SELECT ${DELIVERY_COLUMNS} FROM call_deliveries d
    WHERE d.account_id = ? AND d.seq > ? ORDER BY d.seq LIMIT ?`,
  openCallsSince: `SELECT ${DELIVERY_COLUMNS} FROM call_deliveries d
    JOIN events e ON e.account_id = d.account_id AND e.event_id = d.event_id
    WHERE d.account_id = ? AND d.seq > ? AND e.expires_at IS NOT NULL AND e.sealed IS NOT NULL
    ORDER BY d.seq LIMIT ?`,
  find: `SELECT ${DELIVERY_COLUMNS} FROM call_deliveries d
    WHERE d.account_id = ? AND d.event_id = ? AND d.device_id = ? AND d.outcome = ?`,
} as const;

/** The parameters of `DELIVERY_SQL.call` and `DELIVERY_SQL.device`, and of `DELIVERY_SQL.find` for this outcome. */
export function deliveryParameters(input: NewDelivery): {
  call: [string, string];
  device: [string, string];
  find: [string, string, string, string];
} {
  return {
    call: [input.accountId, input.eventId],
    device: [input.deviceId, input.accountId],
    find: [input.accountId, input.eventId, input.deviceId, input.outcome],
  };
}

/** The delivery reads both stores run the same way (a read's `limit`: each store's own "no limit" for all). */
export const DELIVERY_QUERIES = {
  find: (input: NewDelivery) =>
    storeQuery(DELIVERY_SQL.find, deliveryParameters(input).find, firstOrNull(toCallDelivery)),
  since: (accountId: string, afterSeq: number, limit: number | null) =>
    storeQuery(DELIVERY_SQL.since, [accountId, afterSeq, limit], (rows) => rows.map(toDeliveryEntry)),
  openCallsSince: (accountId: string, afterSeq: number, limit: number | null) =>
    storeQuery(DELIVERY_SQL.openCallsSince, [accountId, afterSeq, limit], (rows) =>
      rows.map(toDeliveryEntry),
    ),
} as const;

/**
 * A delivery outcome about to be stored with `seq`, under its device's `DELIVERY_SQL.device` row: the parameters
 * of `DELIVERY_SQL.insert` and the stream entry it makes.
 */
export function recordedDelivery(
  input: NewDelivery,
  deviceRow: Row,
  seq: number,
): { parameters: [string, string, string, string, number, string, string, number]; entry: DeliveryEntry } {
  const device = toDeliveryDevice(deviceRow);
  const { accountId, eventId, deviceId, outcome, now } = input;
  return {
    parameters: [accountId, eventId, deviceId, outcome, seq, device.name, device.kind, now],
    entry: newDeliveryEntry(input, device, seq),
  };
}

/** The device a delivery record names: its name when the outcome was recorded (opaque: sealed by it), its kind. */
interface DeliveryDevice {
  readonly name: string;
  readonly kind: DeviceKind;
}

/** The device columns of a `devices` row as a delivery names it. */
function toDeliveryDevice(row: Readonly<Record<string, unknown>>): DeliveryDevice {
  return { name: text(row.name), kind: DeviceKind.parse(row.kind) };
}

/** The stream entry of a delivery outcome just recorded with `seq`, under the device's name at that time. */
function newDeliveryEntry(input: NewDelivery, device: DeliveryDevice, seq: number): DeliveryEntry {
  const delivery: CallDelivery = {
    seq,
    eventId: input.eventId,
    deviceId: input.deviceId,
    deviceName: device.name,
    deviceKind: device.kind,
    outcome: input.outcome,
    at: new Date(input.now).toISOString(),
  };
  return { kind: "call-delivery", accountId: input.accountId, seq, delivery };
}

function toCallDelivery(row: Row): CallDelivery {
  const deviceKind = textOrNull(row.device_kind);
  return {
    seq: integer(row.seq),
    eventId: text(row.event_id),
    deviceId: text(row.device_id),
    deviceName: text(row.device_name),
    ...(deviceKind === null ? {} : { deviceKind: DeviceKind.parse(deviceKind) }),
    outcome: DeliveryOutcome.parse(row.outcome),
    at: new Date(integer(row.at)).toISOString(),
  };
}

function toDeliveryEntry(row: Row): DeliveryEntry {
  const delivery = toCallDelivery(row);
  return { kind: "call-delivery", accountId: text(row.account_id), seq: delivery.seq, delivery };
}

/**
 * Delivery records live in their own table (so they go with their call's row), not in `stream_entries`: a stream
 * read takes both, each in seq order, and interleaves them.
 */
export function mergeBySeq(
  entries: readonly StreamEntry[],
  deliveries: readonly DeliveryEntry[],
): StreamEntry[] {
  if (deliveries.length === 0) return [...entries];
  return [...entries, ...deliveries].sort((a, b) => a.seq - b.seq);
}
