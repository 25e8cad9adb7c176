import { ACCOUNT_QUERIES, ACCOUNT_SQL, CLAIM_CODE_SETTING, pairingRefusal } from "./account-rows.js";
import { notify, type PostgresDatabase, type Queries, query, read, text } from "./postgres-database.js";
import { failRepliesTo } from "./postgres-replies.js";
import { notifyEntries } from "./postgres-rows.js";
import { PUSH_QUERIES } from "./push-rows.js";
import type {
  DeviceRemoval,
  NewAccount,
  NewPairingCode,
  PairingRedemption,
  RelayClaim,
  StreamEntry,
} from "./store.js";

// The account reads and writes both stores run the same way are ACCOUNT_QUERIES (run in postgres-store.ts); these
// are the ones whose transaction (and locking) is PostgreSQL's own.

export function claimRelay(
  pg: PostgresDatabase,
  input: RelayClaim,
): Promise<"claimed" | "invalid_claim_code" | "already_claimed"> {
  return pg.transaction(async (tx) => {
    // The code's row lock makes two instances' claims take turns: the second then sees the first's account.
    const [stored] = await query(tx, `${ACCOUNT_SQL.claimCode} FOR UPDATE`, [CLAIM_CODE_SETTING]);
    if (await read(tx, ACCOUNT_QUERIES.hasAccounts())) return "already_claimed";
    if (!stored || text(stored.value) !== input.claimCodeHash) return "invalid_claim_code";
    await insertAccount(tx, input);
    await read(tx, ACCOUNT_QUERIES.setClaimCodeHash(null));
    return "claimed";
  });
}

export function createAccount(pg: PostgresDatabase, input: NewAccount): Promise<void> {
  return pg.transaction((tx) => insertAccount(tx, input));
}

async function insertAccount(db: Queries, input: NewAccount): Promise<void> {
  await read(db, ACCOUNT_QUERIES.insertAccount(input.accountId, input.now));
  await read(db, ACCOUNT_QUERIES.insertDevice(input.accountId, input.device, input.now));
}

export function removeDevice(
  pg: PostgresDatabase,
  input: DeviceRemoval,
): Promise<{ removed: boolean; entries: readonly StreamEntry[] }> {
  return pg.transaction(async (tx) => {
    const parameters = [input.now, input.deviceId, input.accountId];
    const changed = await query(tx, `${ACCOUNT_SQL.removeDevice} RETURNING id`, parameters);
    if (changed.length === 0) return { removed: false, entries: [] };
    for (const write of ACCOUNT_QUERIES.deleteCodeAndDevicePosts(input.accountId, input.deviceId)) {
      await read(tx, write);
    }
    for (const write of PUSH_QUERIES.forgetDevice(input.deviceId)) await read(tx, write);
    const entries = await failRepliesTo(tx, input.deviceId, input.now);
    await notifyEntries(tx, pg.channel, entries);
    // Its streams and link may be held by other instances: they close them when this commits.
    await notify(tx, pg.channel, { t: "device-removed", d: input.deviceId });
    return { removed: true, entries };
  });
}

export function createPairingCode(pg: PostgresDatabase, input: NewPairingCode): Promise<boolean> {
  return pg.transaction(async (tx) => {
    await query(tx, ACCOUNT_SQL.replaceCodes, [input.now, input.createdBy]);
    const parameters = [input.codeHash, input.accountId, input.createdBy, input.expiresAt];
    const inserted = await query(tx, `${ACCOUNT_SQL.insertCode} RETURNING code_hash`, parameters);
    return inserted.length === 1;
  });
}

export function redeemPairingCode(pg: PostgresDatabase, input: PairingRedemption) {
  return pg.transaction(async (tx) => {
    // The code's row lock: of two instances redeeming one code, the second finds it gone.
    const [code] = await query(tx, `${ACCOUNT_SQL.liveCode} FOR UPDATE`, [input.codeHash, input.now]);
    if (!code) return { kind: "invalid" } as const;
    const accountId = text(code.account_id);
    // The account's row lock: devices join one account one at a time, so its limits hold across instances.
    await tx`SELECT id FROM accounts WHERE id = ${accountId} FOR UPDATE`;
    const [live] = await query(tx, ACCOUNT_SQL.liveDevices, [accountId]);
    const since = input.now - input.limits.pairingWindowMs;
    const [joined] = await query(tx, ACCOUNT_SQL.joinedSince, [accountId, since]);
    const refusal = pairingRefusal(accountId, { live, joined }, input.limits);
    if (refusal) return refusal;
    await query(tx, ACCOUNT_SQL.deleteCode, [input.codeHash]);
    await read(tx, ACCOUNT_QUERIES.insertDevice(accountId, input.device, input.now));
    return { kind: "joined", accountId } as const;
  });
}
