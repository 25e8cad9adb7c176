import { DeviceKind } from "@ringback/protocol";
import { integer, integerOrNull, type Row, text } from "./columns.js";
import type {
  AccountDeviceLimits,
  DeviceRecord,
  DeviceRename,
  NewDevice,
  RateLimitState,
  RedeemOutcome,
} from "./store.js";
import { firstOrNull, storeQuery, storeWrite } from "./store-query.js";

/** The `relay_settings` row holding the hash of the claim code that creates the first account. */
export const CLAIM_CODE_SETTING = "claim_code_hash";

const DEVICE_COLUMNS = "id, account_id, name, kind, created_at, last_seen_at";

/**
 * The account, device, pairing-code and rate-limit statements both stores run as they are (`?` placeholders); a
 * store adds only its own locking or RETURNING clause.
 */
export const ACCOUNT_SQL = {
  anyAccount: "SELECT 1 AS found FROM accounts LIMIT 1",
  claimCode: "SELECT value FROM relay_settings WHERE name = ?",
  setClaimCode: `INSERT INTO relay_settings (name, value) VALUES (?, ?)
    ON CONFLICT (name) DO UPDATE SET value = excluded.value`,
  deleteSetting: "DELETE FROM relay_settings WHERE name = ?",
  insertAccount: "INSERT INTO accounts (id, created_at) VALUES (?, ?)",
  insertDevice:
    "INSERT INTO devices (id, account_id, name, kind, token_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)",
  deviceByTokenHash: `SELECT ${DEVICE_COLUMNS} FROM devices WHERE token_hash = ? AND removed_at IS NULL`,
  touchDevice:
    "UPDATE devices SET last_seen_at = ? WHERE id = ? AND (last_seen_at IS NULL OR last_seen_at <= ?)",
  device: `SELECT ${DEVICE_COLUMNS} FROM devices WHERE id = ? AND account_id = ? AND removed_at IS NULL`,
  renameDevice: "UPDATE devices SET name = ? WHERE id = ? AND account_id = ? AND removed_at IS NULL",
  removeDevice: "UPDATE devices SET removed_at = ? WHERE id = ? AND account_id = ? AND removed_at IS NULL",
  deleteCodesBy: "DELETE FROM pairing_codes WHERE created_by = ?",
  deleteRotationsBy: "DELETE FROM key_rotations WHERE account_id = ? AND posted_by = ?",
  deleteFleetStateOf: "DELETE FROM fleet_states WHERE account_id = ? AND computer_id = ?",
  /** One live code per device: a new code replaces the device's last, so no device can fill the code space. */
  replaceCodes: "DELETE FROM pairing_codes WHERE expires_at <= ? OR created_by = ?",
  insertCode: `INSERT INTO pairing_codes (code_hash, account_id, created_by, expires_at) VALUES (?, ?, ?, ?)
    ON CONFLICT (code_hash) DO NOTHING`,
  liveCode: "SELECT account_id FROM pairing_codes WHERE code_hash = ? AND expires_at > ?",
  liveDevices: "SELECT COUNT(*) AS n FROM devices WHERE account_id = ? AND removed_at IS NULL",
  joinedSince:
    "SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM devices WHERE account_id = ? AND created_at > ?",
  deleteCode: "DELETE FROM pairing_codes WHERE code_hash = ?",
  rateLimit: "SELECT count, reset_at FROM rate_limits WHERE key = ? AND reset_at > ?",
  /** One atomic upsert (key, now, reset at): hits from every instance add up in the same counter. */
  rateLimitHit: `INSERT INTO rate_limits AS r (key, count, reset_at) VALUES (?1, 1, ?3)
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN r.reset_at <= ?2 THEN 1 ELSE r.count + 1 END,
      reset_at = CASE WHEN r.reset_at <= ?2 THEN ?3 ELSE r.reset_at END
    RETURNING count, reset_at`,
  pruneRateLimits: "DELETE FROM rate_limits WHERE reset_at <= ?",
  pruneCodes: "DELETE FROM pairing_codes WHERE expires_at <= ?",
} as const;

/** The account and device reads and writes both stores run the same way. */
export const ACCOUNT_QUERIES = {
  hasAccounts: () => storeQuery(ACCOUNT_SQL.anyAccount, [], (rows) => rows.length > 0),
  /** Replaces the one-time claim code (its hash); null removes it. */
  setClaimCodeHash: (codeHash: string | null) =>
    codeHash === null
      ? storeWrite(ACCOUNT_SQL.deleteSetting, [CLAIM_CODE_SETTING])
      : storeWrite(ACCOUNT_SQL.setClaimCode, [CLAIM_CODE_SETTING, codeHash]),
  insertAccount: (accountId: string, now: number) => storeWrite(ACCOUNT_SQL.insertAccount, [accountId, now]),
  insertDevice: (accountId: string, device: NewDevice, now: number) =>
    storeWrite(ACCOUNT_SQL.insertDevice, [
      device.id,
      accountId,
      device.name,
      device.kind,
      device.tokenHash,
      now,
    ]),
  deviceByTokenHash: (tokenHash: string) =>
    storeQuery(ACCOUNT_SQL.deviceByTokenHash, [tokenHash], firstOrNull(toDeviceRecord)),
  touchDevice: (deviceId: string, now: number, minIntervalMs: number) =>
    storeWrite(ACCOUNT_SQL.touchDevice, [now, deviceId, now - minIntervalMs]),
  device: (accountId: string, deviceId: string) =>
    storeQuery(ACCOUNT_SQL.device, [deviceId, accountId], firstOrNull(toDeviceRecord)),
  /** The account's devices in the order they joined: `joinOrder` is SQLite's `rowid`, PostgreSQL's `joined`. */
  /** False when there is no such live device. */
  renameDevice: (input: DeviceRename) =>
    storeQuery(
      `${ACCOUNT_SQL.renameDevice} RETURNING id`,
      [input.name, input.deviceId, input.accountId],
      (rows) => rows.length === 1,
    ),
  devices: (accountId: string, joinOrder: "rowid" | "joined") =>
    storeQuery(
      `SELECT ${DEVICE_COLUMNS} FROM devices WHERE account_id = ? AND removed_at IS NULL ORDER BY created_at, ${joinOrder}`,
      [accountId],
      (rows) => rows.map(toDeviceRecord),
    ),
  deleteCodeAndDevicePosts: (accountId: string, deviceId: string) => [
    // A code the removed device made must not let anyone in after it is gone.
    storeWrite(ACCOUNT_SQL.deleteCodesBy, [deviceId]),
    // Nor may a rotation notice it posted (one that does not open, say) hold the slot of the rotation removing it.
    storeWrite(ACCOUNT_SQL.deleteRotationsBy, [accountId, deviceId]),
    // A removed computer's agents leave the account's fleet with it.
    storeWrite(ACCOUNT_SQL.deleteFleetStateOf, [accountId, deviceId]),
  ],
  rateLimitState: (key: string, now: number) =>
    storeQuery(ACCOUNT_SQL.rateLimit, [key, now], ([row]) => toRateLimitState(row, now)),
  rateLimitHit: (key: string, now: number, windowMs: number) =>
    storeQuery(ACCOUNT_SQL.rateLimitHit, [key, now, now + windowMs], ([row]) => {
      if (!row) throw new Error("The rate-limit counter was not written.");
      return toRateLimitState(row, now);
    }),
  pruneRateLimitsAndCodes: (now: number) => [
    storeWrite(ACCOUNT_SQL.pruneRateLimits, [now]),
    storeWrite(ACCOUNT_SQL.pruneCodes, [now]),
  ],
} as const;

function toDeviceRecord(row: Row): DeviceRecord {
  return {
    id: text(row.id),
    accountId: text(row.account_id),
    name: text(row.name),
    kind: DeviceKind.parse(row.kind),
    createdAt: integer(row.created_at),
    lastSeenAt: integerOrNull(row.last_seen_at),
  };
}

/** A `rate_limits` row (none: a fresh window from `now`). */
function toRateLimitState(row: Row | undefined, now: number): RateLimitState {
  return row ? { count: integer(row.count), resetAt: integer(row.reset_at) } : { count: 0, resetAt: now };
}

/**
 * Whether the account has room for one more device, from its `liveDevices` and `joinedSince` rows: null when it
 * has, else the refusal.
 */
export function pairingRefusal(
  accountId: string,
  counts: { live: Row | undefined; joined: Row | undefined },
  limits: AccountDeviceLimits,
): RedeemOutcome | null {
  if (integer(counts.live?.n) >= limits.devicesMax) return { kind: "devices-full", accountId };
  if (integer(counts.joined?.n) < limits.pairingsMax) return null;
  return {
    kind: "pairings-full",
    accountId,
    retryAt: integer(counts.joined?.oldest) + limits.pairingWindowMs,
  };
}
