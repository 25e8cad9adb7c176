import { ACCOUNT_QUERIES, ACCOUNT_SQL, CLAIM_CODE_SETTING, pairingRefusal } from "./account-rows.js";
import { PUSH_QUERIES } from "./push-rows.js";
import { type SqliteDatabase, text } from "./sqlite-database.js";
import { failRepliesTo } from "./sqlite-replies.js";
import type { DeviceRemoval, NewAccount, NewPairingCode, PairingRedemption, RelayClaim } from "./store.js";

// The account reads and writes both stores run the same way are ACCOUNT_QUERIES (run in sqlite-store.ts); these
// are the ones whose transaction is SQLite's own.

export function claimRelay(db: SqliteDatabase, input: RelayClaim) {
  return db.transaction(() => {
    if (db.read(ACCOUNT_QUERIES.hasAccounts())) return "already_claimed";
    const stored = db.get(ACCOUNT_SQL.claimCode, CLAIM_CODE_SETTING);
    if (!stored || text(stored.value) !== input.claimCodeHash) return "invalid_claim_code";
    createAccount(db, input);
    db.read(ACCOUNT_QUERIES.setClaimCodeHash(null));
    return "claimed";
  });
}

export function createAccount(db: SqliteDatabase, input: NewAccount): void {
  db.transaction(() => {
    db.read(ACCOUNT_QUERIES.insertAccount(input.accountId, input.now));
    db.read(ACCOUNT_QUERIES.insertDevice(input.accountId, input.device, input.now));
  });
}

export function removeDevice(db: SqliteDatabase, input: DeviceRemoval) {
  return db.transaction(() => {
    const changed = db.run(ACCOUNT_SQL.removeDevice, input.now, input.deviceId, input.accountId);
    if (changed === 0) return { removed: false, entries: [] };
    for (const write of ACCOUNT_QUERIES.deleteCodeAndDevicePosts(input.accountId, input.deviceId))
      db.read(write);
    for (const write of PUSH_QUERIES.forgetDevice(input.deviceId)) db.read(write);
    return { removed: true, entries: failRepliesTo(db, input.deviceId, input.now) };
  });
}

export function createPairingCode(db: SqliteDatabase, input: NewPairingCode): boolean {
  return db.transaction(() => {
    db.run(ACCOUNT_SQL.replaceCodes, input.now, input.createdBy);
    const inserted = db.run(
      ACCOUNT_SQL.insertCode,
      input.codeHash,
      input.accountId,
      input.createdBy,
      input.expiresAt,
    );
    return inserted === 1;
  });
}

export function redeemPairingCode(db: SqliteDatabase, input: PairingRedemption) {
  return db.transaction(() => {
    const code = db.get(ACCOUNT_SQL.liveCode, input.codeHash, input.now);
    if (!code) return { kind: "invalid" } as const;
    const accountId = text(code.account_id);
    const live = db.get(ACCOUNT_SQL.liveDevices, accountId);
    const joined = db.get(ACCOUNT_SQL.joinedSince, accountId, input.now - input.limits.pairingWindowMs);
    const refusal = pairingRefusal(accountId, { live, joined }, input.limits);
    if (refusal) return refusal;
    db.run(ACCOUNT_SQL.deleteCode, input.codeHash);
    db.read(ACCOUNT_QUERIES.insertDevice(accountId, input.device, input.now));
    return { kind: "joined", accountId } as const;
  });
}
