import { CLAIM_CODE_SETTING, DEVICE_COLUMNS, toDeviceRecord } from "./row-records.js";
import { integer, type SqliteDatabase, text } from "./sqlite-database.js";
import { forgetDevicePush } from "./sqlite-push.js";
import { failRepliesTo } from "./sqlite-replies.js";
import type {
  AccountDeviceLimits,
  DeviceRecord,
  NewDevice,
  RateLimitState,
  RedeemOutcome,
  StreamEntry,
} from "./store.js";

export function hasAccounts(db: SqliteDatabase): boolean {
  return db.get("SELECT 1 AS found FROM accounts LIMIT 1") !== undefined;
}

export function setClaimCodeHash(db: SqliteDatabase, codeHash: string | null): void {
  if (codeHash === null) {
    db.run("DELETE FROM relay_settings WHERE name = ?", CLAIM_CODE_SETTING);
    return;
  }
  db.run(
    "INSERT INTO relay_settings (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value",
    CLAIM_CODE_SETTING,
    codeHash,
  );
}

export function claimRelay(
  db: SqliteDatabase,
  input: { claimCodeHash: string; device: NewDevice; accountId: string; now: number },
): "claimed" | "invalid_claim_code" | "already_claimed" {
  return db.transaction(() => {
    if (hasAccounts(db)) return "already_claimed";
    const stored = db.get("SELECT value FROM relay_settings WHERE name = ?", CLAIM_CODE_SETTING);
    if (!stored || text(stored.value) !== input.claimCodeHash) return "invalid_claim_code";
    createAccount(db, input);
    setClaimCodeHash(db, null);
    return "claimed";
  });
}

export function createAccount(
  db: SqliteDatabase,
  input: { device: NewDevice; accountId: string; now: number },
): void {
  db.transaction(() => {
    db.run("INSERT INTO accounts (id, created_at) VALUES (?, ?)", input.accountId, input.now);
    insertDevice(db, input.accountId, input.device, input.now);
  });
}

function insertDevice(db: SqliteDatabase, accountId: string, device: NewDevice, now: number): void {
  db.run(
    "INSERT INTO devices (id, account_id, name, kind, token_hash, created_at) VALUES (?, ?, ?, ?, ?, ?)",
    device.id,
    accountId,
    device.name,
    device.kind,
    device.tokenHash,
    now,
  );
}

export function findDeviceByTokenHash(db: SqliteDatabase, tokenHash: string): DeviceRecord | null {
  const row = db.get(
    `SELECT ${DEVICE_COLUMNS} FROM devices WHERE token_hash = ? AND removed_at IS NULL`,
    tokenHash,
  );
  return row ? toDeviceRecord(row) : null;
}

export function touchDevice(db: SqliteDatabase, deviceId: string, now: number, minIntervalMs: number): void {
  db.run(
    "UPDATE devices SET last_seen_at = ? WHERE id = ? AND (last_seen_at IS NULL OR last_seen_at <= ?)",
    now,
    deviceId,
    now - minIntervalMs,
  );
}

export function findDevice(db: SqliteDatabase, accountId: string, deviceId: string): DeviceRecord | null {
  const row = db.get(
    `SELECT ${DEVICE_COLUMNS} FROM devices WHERE id = ? AND account_id = ? AND removed_at IS NULL`,
    deviceId,
    accountId,
  );
  return row ? toDeviceRecord(row) : null;
}

export function listDevices(db: SqliteDatabase, accountId: string): DeviceRecord[] {
  return db
    .all(
      `SELECT ${DEVICE_COLUMNS} FROM devices WHERE account_id = ? AND removed_at IS NULL ORDER BY created_at, rowid`,
      accountId,
    )
    .map(toDeviceRecord);
}

export function renameDevice(
  db: SqliteDatabase,
  input: { accountId: string; deviceId: string; name: string },
): boolean {
  const changed = db.run(
    "UPDATE devices SET name = ? WHERE id = ? AND account_id = ? AND removed_at IS NULL",
    input.name,
    input.deviceId,
    input.accountId,
  );
  return changed === 1;
}

export function removeDevice(
  db: SqliteDatabase,
  input: { accountId: string; deviceId: string; now: number },
): { removed: boolean; entries: StreamEntry[] } {
  return db.transaction(() => {
    const changed = db.run(
      "UPDATE devices SET removed_at = ? WHERE id = ? AND account_id = ? AND removed_at IS NULL",
      input.now,
      input.deviceId,
      input.accountId,
    );
    if (changed === 0) return { removed: false, entries: [] };
    // A code the removed device made must not let anyone in after it is gone.
    db.run("DELETE FROM pairing_codes WHERE created_by = ?", input.deviceId);
    // Nor may a rotation notice it posted (one that does not open, say) hold the slot of the rotation removing it.
    db.run(
      "DELETE FROM key_rotations WHERE account_id = ? AND posted_by = ?",
      input.accountId,
      input.deviceId,
    );
    forgetDevicePush(db, input.deviceId);
    return { removed: true, entries: failRepliesTo(db, input.deviceId, input.now) };
  });
}

export function createPairingCode(
  db: SqliteDatabase,
  input: { codeHash: string; accountId: string; createdBy: string; expiresAt: number; now: number },
): boolean {
  return db.transaction(() => {
    // One live code per device: a new code replaces the device's last, so no device can fill the code space.
    db.run("DELETE FROM pairing_codes WHERE expires_at <= ? OR created_by = ?", input.now, input.createdBy);
    const inserted = db.run(
      "INSERT OR IGNORE INTO pairing_codes (code_hash, account_id, created_by, expires_at) VALUES (?, ?, ?, ?)",
      input.codeHash,
      input.accountId,
      input.createdBy,
      input.expiresAt,
    );
    return inserted === 1;
  });
}

export function redeemPairingCode(
  db: SqliteDatabase,
  input: { codeHash: string; device: NewDevice; now: number; limits: AccountDeviceLimits },
): RedeemOutcome {
  return db.transaction(() => {
    const code = db.get(
      "SELECT account_id FROM pairing_codes WHERE code_hash = ? AND expires_at > ?",
      input.codeHash,
      input.now,
    );
    if (!code) return { kind: "invalid" };
    const accountId = text(code.account_id);
    const live = db.get(
      "SELECT COUNT(*) AS n FROM devices WHERE account_id = ? AND removed_at IS NULL",
      accountId,
    );
    if (integer(live?.n) >= input.limits.devicesMax) return { kind: "devices-full", accountId };
    const since = input.now - input.limits.pairingWindowMs;
    const joined = db.get(
      "SELECT COUNT(*) AS n, MIN(created_at) AS oldest FROM devices WHERE account_id = ? AND created_at > ?",
      accountId,
      since,
    );
    if (integer(joined?.n) >= input.limits.pairingsMax) {
      return {
        kind: "pairings-full",
        accountId,
        retryAt: integer(joined?.oldest) + input.limits.pairingWindowMs,
      };
    }
    db.run("DELETE FROM pairing_codes WHERE code_hash = ?", input.codeHash);
    insertDevice(db, accountId, input.device, input.now);
    return { kind: "joined", accountId };
  });
}

export function rateLimitState(db: SqliteDatabase, key: string, now: number): RateLimitState {
  const row = db.get("SELECT count, reset_at FROM rate_limits WHERE key = ? AND reset_at > ?", key, now);
  return row ? { count: integer(row.count), resetAt: integer(row.reset_at) } : { count: 0, resetAt: now };
}

export function rateLimitHit(db: SqliteDatabase, key: string, now: number, windowMs: number): RateLimitState {
  const row = db.get(
    `INSERT INTO rate_limits (key, count, reset_at) VALUES (?1, 1, ?3)
     ON CONFLICT(key) DO UPDATE SET
       count = CASE WHEN reset_at <= ?2 THEN 1 ELSE count + 1 END,
       reset_at = CASE WHEN reset_at <= ?2 THEN ?3 ELSE reset_at END
     RETURNING count, reset_at`,
    key,
    now,
    now + windowMs,
  );
  if (!row) throw new Error("The rate-limit counter was not written.");
  return { count: integer(row.count), resetAt: integer(row.reset_at) };
}

export function pruneRateLimitsAndCodes(db: SqliteDatabase, now: number): void {
  db.run("DELETE FROM rate_limits WHERE reset_at <= ?", now);
  db.run("DELETE FROM pairing_codes WHERE expires_at <= ?", now);
}
