import { integer, notify, type PostgresDatabase, type Queries, text } from "./postgres-database.js";
import { forgetDevicePush } from "./postgres-push.js";
import { failRepliesTo } from "./postgres-replies.js";
import { notifyEntries } from "./postgres-rows.js";
import { CLAIM_CODE_SETTING, DEVICE_COLUMNS, toDeviceRecord } from "./row-records.js";
import type {
  AccountDeviceLimits,
  DeviceRecord,
  NewDevice,
  RateLimitState,
  RedeemOutcome,
  StreamEntry,
} from "./store.js";

export async function hasAccounts(db: Queries): Promise<boolean> {
  const [row] = await db`SELECT EXISTS (SELECT 1 FROM accounts) AS found`;
  return row?.found === true;
}

export async function setClaimCodeHash(db: Queries, codeHash: string | null): Promise<void> {
  if (codeHash === null) {
    await db`DELETE FROM relay_settings WHERE name = ${CLAIM_CODE_SETTING}`;
    return;
  }
  await db`INSERT INTO relay_settings (name, value) VALUES (${CLAIM_CODE_SETTING}, ${codeHash})
    ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value`;
}

export function claimRelay(
  pg: PostgresDatabase,
  input: { claimCodeHash: string; device: NewDevice; accountId: string; now: number },
): Promise<"claimed" | "invalid_claim_code" | "already_claimed"> {
  return pg.transaction(async (tx) => {
    // The code's row lock makes two instances' claims take turns: the second then sees the first's account.
    const [stored] = await tx`SELECT value FROM relay_settings WHERE name = ${CLAIM_CODE_SETTING} FOR UPDATE`;
    if (await hasAccounts(tx)) return "already_claimed";
    if (!stored || text(stored.value) !== input.claimCodeHash) return "invalid_claim_code";
    await insertAccount(tx, input);
    await setClaimCodeHash(tx, null);
    return "claimed";
  });
}

export function createAccount(
  pg: PostgresDatabase,
  input: { device: NewDevice; accountId: string; now: number },
): Promise<void> {
  return pg.transaction((tx) => insertAccount(tx, input));
}

async function insertAccount(
  db: Queries,
  input: { device: NewDevice; accountId: string; now: number },
): Promise<void> {
  await db`INSERT INTO accounts (id, created_at) VALUES (${input.accountId}, ${input.now})`;
  await insertDevice(db, input.accountId, input.device, input.now);
}

async function insertDevice(db: Queries, accountId: string, device: NewDevice, now: number): Promise<void> {
  await db`INSERT INTO devices (id, account_id, name, kind, token_hash, created_at)
    VALUES (${device.id}, ${accountId}, ${device.name}, ${device.kind}, ${device.tokenHash}, ${now})`;
}

export async function findDeviceByTokenHash(db: Queries, tokenHash: string): Promise<DeviceRecord | null> {
  const [row] = await db`SELECT ${db.unsafe(DEVICE_COLUMNS)} FROM devices
    WHERE token_hash = ${tokenHash} AND removed_at IS NULL`;
  return row ? toDeviceRecord(row) : null;
}

export async function touchDevice(
  db: Queries,
  deviceId: string,
  now: number,
  minIntervalMs: number,
): Promise<void> {
  await db`UPDATE devices SET last_seen_at = ${now}
    WHERE id = ${deviceId} AND (last_seen_at IS NULL OR last_seen_at <= ${now - minIntervalMs})`;
}

export async function findDevice(
  db: Queries,
  accountId: string,
  deviceId: string,
): Promise<DeviceRecord | null> {
  const [row] = await db`SELECT ${db.unsafe(DEVICE_COLUMNS)} FROM devices
    WHERE id = ${deviceId} AND account_id = ${accountId} AND removed_at IS NULL`;
  return row ? toDeviceRecord(row) : null;
}

export async function listDevices(db: Queries, accountId: string): Promise<DeviceRecord[]> {
  const rows = await db`SELECT ${db.unsafe(DEVICE_COLUMNS)} FROM devices
    WHERE account_id = ${accountId} AND removed_at IS NULL ORDER BY created_at, joined`;
  return rows.map(toDeviceRecord);
}

export async function renameDevice(
  db: Queries,
  input: { accountId: string; deviceId: string; name: string },
): Promise<boolean> {
  const changed = await db`UPDATE devices SET name = ${input.name}
    WHERE id = ${input.deviceId} AND account_id = ${input.accountId} AND removed_at IS NULL RETURNING id`;
  return changed.length === 1;
}

export function removeDevice(
  pg: PostgresDatabase,
  input: { accountId: string; deviceId: string; now: number },
): Promise<{ removed: boolean; entries: StreamEntry[] }> {
  return pg.transaction(async (tx) => {
    const changed = await tx`UPDATE devices SET removed_at = ${input.now}
      WHERE id = ${input.deviceId} AND account_id = ${input.accountId} AND removed_at IS NULL RETURNING id`;
    if (changed.length === 0) return { removed: false, entries: [] };
    // A code the removed device made must not let anyone in after it is gone.
    await tx`DELETE FROM pairing_codes WHERE created_by = ${input.deviceId}`;
    // Nor may a rotation notice it posted (one that does not open, say) hold the slot of the rotation removing it.
    await tx`DELETE FROM key_rotations WHERE account_id = ${input.accountId} AND posted_by = ${input.deviceId}`;
    await forgetDevicePush(tx, input.deviceId);
    const entries = await failRepliesTo(tx, input.deviceId, input.now);
    await notifyEntries(tx, pg.channel, entries);
    // Its streams and link may be held by other instances: they close them when this commits.
    await notify(tx, pg.channel, { t: "device-removed", d: input.deviceId });
    return { removed: true, entries };
  });
}

export function createPairingCode(
  pg: PostgresDatabase,
  input: { codeHash: string; accountId: string; createdBy: string; expiresAt: number; now: number },
): Promise<boolean> {
  return pg.transaction(async (tx) => {
    // One live code per device: a new code replaces the device's last, so no device can fill the code space.
    await tx`DELETE FROM pairing_codes WHERE expires_at <= ${input.now} OR created_by = ${input.createdBy}`;
    const inserted = await tx`INSERT INTO pairing_codes (code_hash, account_id, created_by, expires_at)
      VALUES (${input.codeHash}, ${input.accountId}, ${input.createdBy}, ${input.expiresAt})
      ON CONFLICT (code_hash) DO NOTHING RETURNING code_hash`;
    return inserted.length === 1;
  });
}

export function redeemPairingCode(
  pg: PostgresDatabase,
  input: { codeHash: string; device: NewDevice; now: number; limits: AccountDeviceLimits },
): Promise<RedeemOutcome> {
  return pg.transaction(async (tx) => {
    // The code's row lock: of two instances redeeming one code, the second finds it gone.
    const [code] = await tx`SELECT account_id FROM pairing_codes
      WHERE code_hash = ${input.codeHash} AND expires_at > ${input.now} FOR UPDATE`;
    if (!code) return { kind: "invalid" };
    const accountId = text(code.account_id);
    // The account's row lock: devices join one account one at a time, so its limits hold across instances.
    await tx`SELECT id FROM accounts WHERE id = ${accountId} FOR UPDATE`;
    const [live] = await tx`SELECT COUNT(*)::int AS n FROM devices
      WHERE account_id = ${accountId} AND removed_at IS NULL`;
    if (integer(live?.n) >= input.limits.devicesMax) return { kind: "devices-full", accountId };
    const since = input.now - input.limits.pairingWindowMs;
    const [joined] = await tx`SELECT COUNT(*)::int AS n, MIN(created_at) AS oldest FROM devices
      WHERE account_id = ${accountId} AND created_at > ${since}`;
    if (integer(joined?.n) >= input.limits.pairingsMax) {
      return {
        kind: "pairings-full",
        accountId,
        retryAt: integer(joined?.oldest) + input.limits.pairingWindowMs,
      };
    }
    await tx`DELETE FROM pairing_codes WHERE code_hash = ${input.codeHash}`;
    await insertDevice(tx, accountId, input.device, input.now);
    return { kind: "joined", accountId };
  });
}

export async function rateLimitState(db: Queries, key: string, now: number): Promise<RateLimitState> {
  const [row] = await db`SELECT count, reset_at FROM rate_limits WHERE key = ${key} AND reset_at > ${now}`;
  return row ? { count: integer(row.count), resetAt: integer(row.reset_at) } : { count: 0, resetAt: now };
}

/** One atomic upsert: hits from every instance add up in the same counter. */
export async function rateLimitHit(
  db: Queries,
  key: string,
  now: number,
  windowMs: number,
): Promise<RateLimitState> {
  const [row] =
    await db`INSERT INTO rate_limits AS r (key, count, reset_at) VALUES (${key}, 1, ${now + windowMs})
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN r.reset_at <= ${now} THEN 1 ELSE r.count + 1 END,
      reset_at = CASE WHEN r.reset_at <= ${now} THEN EXCLUDED.reset_at ELSE r.reset_at END
    RETURNING count, reset_at`;
  if (!row) throw new Error("The rate-limit counter was not written.");
  return { count: integer(row.count), resetAt: integer(row.reset_at) };
}

export async function pruneRateLimitsAndCodes(db: Queries, now: number): Promise<void> {
  await db`DELETE FROM rate_limits WHERE reset_at <= ${now}`;
  await db`DELETE FROM pairing_codes WHERE expires_at <= ${now}`;
}
