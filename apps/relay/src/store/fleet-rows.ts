import { integer, type Row, text } from "./columns.js";
import type { FleetStateRecord, NewFleetState, PutFleetStateOutcome } from "./store.js";
import { firstOrNull, storeQuery } from "./store-query.js";

const FLEET_COLUMNS = "f.computer_id, f.sealed, f.received_at";

/**
 * The fleet statements both stores run as they are. A state replaces the computer's last one only when that one is
 * at least the interval old: the check and the write are one statement, so two instances taking puts of one computer
 * at once cannot both pass it. Reads join the live devices, so a put that raced its computer's removal is never
 * passed on.
 */
const FLEET_SQL = {
  put: `INSERT INTO fleet_states AS f (computer_id, account_id, sealed, received_at) VALUES (?1, ?2, ?3, ?4)
    ON CONFLICT (computer_id) DO UPDATE SET sealed = excluded.sealed, received_at = excluded.received_at
      WHERE f.account_id = excluded.account_id AND f.received_at <= ?5
    RETURNING computer_id`,
  receivedAt: "SELECT received_at FROM fleet_states WHERE computer_id = ?",
  ofAccount: `SELECT ${FLEET_COLUMNS} FROM fleet_states f JOIN devices d ON d.id = f.computer_id
    WHERE f.account_id = ? AND d.account_id = f.account_id AND d.removed_at IS NULL ORDER BY f.computer_id`,
  ofComputer: `SELECT ${FLEET_COLUMNS} FROM fleet_states f JOIN devices d ON d.id = f.computer_id
    WHERE f.account_id = ? AND f.computer_id = ? AND d.account_id = f.account_id AND d.removed_at IS NULL`,
} as const;

export const FLEET_QUERIES = {
  /** True when the state was stored; false when the computer's last one is younger than `minIntervalMs`. */
  put: (input: NewFleetState) =>
    storeQuery(
      FLEET_SQL.put,
      [input.computerId, input.accountId, input.sealed, input.now, input.now - input.minIntervalMs],
      (rows) => rows.length === 1,
    ),
  /** When the computer's last state was stored (null: none). */
  receivedAt: (computerId: string) =>
    storeQuery(
      FLEET_SQL.receivedAt,
      [computerId],
      firstOrNull((row) => integer(row.received_at)),
    ),
  ofAccount: (accountId: string) =>
    storeQuery(FLEET_SQL.ofAccount, [accountId], (rows) => rows.map(toFleetStateRecord)),
  ofComputer: (accountId: string, computerId: string) =>
    storeQuery(FLEET_SQL.ofComputer, [accountId, computerId], firstOrNull(toFleetStateRecord)),
} as const;

function toFleetStateRecord(row: Row): FleetStateRecord {
  return {
    computerId: text(row.computer_id),
    sealed: text(row.sealed),
    receivedAt: integer(row.received_at),
  };
}

/**
 * What a put came to: stored, or too soon (the last state's time, read after the refused write, says from when another
 * may replace it; gone meanwhile: at once).
 */
export function fleetPutOutcome(
  input: NewFleetState,
  isStored: boolean,
  lastReceivedAt: number | null,
): PutFleetStateOutcome {
  if (isStored) {
    return {
      kind: "stored",
      record: { computerId: input.computerId, sealed: input.sealed, receivedAt: input.now },
    };
  }
  return {
    kind: "too-soon",
    retryAt: (lastReceivedAt ?? input.now - input.minIntervalMs) + input.minIntervalMs,
  };
}
