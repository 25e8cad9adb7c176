import { ACCOUNT_QUERIES } from "./account-rows.js";
import { GroupCommit } from "./group-commit.js";
import * as accounts from "./postgres-accounts.js";
import * as calls from "./postgres-calls.js";
import { connectPostgres, type PostgresDatabase, read } from "./postgres-database.js";
import * as deliveries from "./postgres-deliveries.js";
import * as keyRotations from "./postgres-key-rotations.js";
import * as leftovers from "./postgres-leftovers.js";
import { latestPostgresMigration, migratePostgres } from "./postgres-migrations.js";
import * as push from "./postgres-push.js";
import * as replies from "./postgres-replies.js";
import type { AppendEventResult, NewEvent, RelayStore, StreamEntry } from "./store.js";
import { pageRequest } from "./stream-pages.js";

/** The PostgreSQL store, and its database for the cluster coordination that shares the pool. */
export interface PostgresStore extends RelayStore {
  readonly database: PostgresDatabase;
}

/**
 * Connects to `url` and migrates the schema (under an advisory lock: instances starting together migrate once).
 * Every write that adds stream entries also sends their ids with NOTIFY in its transaction, for the other
 * instances' streams (cluster/postgres-cluster.ts listens).
 */
export async function openPostgresStore(url: string): Promise<PostgresStore> {
  const pg = await connectPostgres(url);
  try {
    await migratePostgres(pg.sql);
  } catch (error) {
    await pg.close();
    throw error;
  }
  return postgresStore(pg);
}

function postgresStore(pg: PostgresDatabase): PostgresStore {
  const { sql } = pg;
  // New events posted while one commits go together in the next transaction: one commit, and one stream write, each.
  const appends = new GroupCommit<NewEvent, AppendEventResult>(
    "at-once",
    (inputs) => calls.appendNewEvents(pg, inputs),
    (input) => calls.appendNewEvent(pg, input),
  );
  return {
    kind: "postgres",
    database: pg,
    migrationVersion: () => latestPostgresMigration(sql),
    close: () => pg.close(),

    hasAccounts: () => read(sql, ACCOUNT_QUERIES.hasAccounts()),
    setClaimCodeHash: (codeHash) => read(sql, ACCOUNT_QUERIES.setClaimCodeHash(codeHash)),
    claimRelay: (input) => accounts.claimRelay(pg, input),
    createAccount: (input) => accounts.createAccount(pg, input),

    findDeviceByTokenHash: (tokenHash) => read(sql, ACCOUNT_QUERIES.deviceByTokenHash(tokenHash)),
    touchDevice: (deviceId, now, minIntervalMs) =>
      read(sql, ACCOUNT_QUERIES.touchDevice(deviceId, now, minIntervalMs)),
    findDevice: (accountId, deviceId) => read(sql, ACCOUNT_QUERIES.device(accountId, deviceId)),
    listDevices: (accountId) => read(sql, ACCOUNT_QUERIES.devices(accountId, "joined")),
    renameDevice: (input) => read(sql, ACCOUNT_QUERIES.renameDevice(input)),
    removeDevice: (input) => accounts.removeDevice(pg, input),

    addKeyRotation: (input) => keyRotations.addKeyRotation(pg, input),
    keyRotations: (accountId) => keyRotations.keyRotations(sql, accountId),

    createPairingCode: (input) => accounts.createPairingCode(pg, input),
    redeemPairingCode: (input) => accounts.redeemPairingCode(pg, input),
    rateLimitState: (key, now) => read(sql, ACCOUNT_QUERIES.rateLimitState(key, now)),
    rateLimitHit: (key, now, windowMs) => read(sql, ACCOUNT_QUERIES.rateLimitHit(key, now, windowMs)),

    appendEvent: async (input) => (await calls.knownEvent(pg, input)) ?? appends.submit(input),
    accountUsage: (accountId) => calls.accountUsage(sql, accountId),
    getCall: (accountId, eventId) => calls.getCall(sql, accountId, eventId),
    setCallStatus: (input) => calls.setCallStatus(pg, input),
    streamSince: (accountId, afterSeq) => calls.streamSince(pg, accountId, afterSeq),
    pendingCalls: (accountId) => calls.pendingCalls(pg, accountId),
    streamPage: (...page) => calls.streamPage(pg, pageRequest(...page)),
    pendingCallsPage: (...page) => calls.pendingCallsPage(pg, pageRequest(...page)),

    recordDelivery: (input) => deliveries.recordDelivery(pg, input),

    enqueueReply: (input) => replies.enqueueReply(pg, input),
    queuedReplies: (deviceId) => replies.queuedReplies(sql, deviceId),
    settleReply: (input) => replies.settleReply(pg, input),

    vapidKeys: (candidate) => push.vapidKeys(sql, candidate),
    setPushSubscription: (input) => push.setPushSubscription(pg, input),
    findPushSubscription: (deviceId) => push.findPushSubscription(sql, deviceId),
    removePushSubscription: (deviceId, endpoint) => push.removePushSubscription(pg, deviceId, endpoint),
    claimDuePushes: (now, exceptAccounts = []) => push.claimDuePushes(sql, now, exceptAccounts),
    settlePush: (key, settlement) => push.settlePush(sql, key, settlement),
    takeSettledPushes: (input) => push.takeSettledPushes(sql, input),

    expireDue: async (now): Promise<StreamEntry[]> => {
      const expired = [...(await calls.expireCalls(pg, now)), ...(await replies.expireReplies(pg, now))];
      for (const write of ACCOUNT_QUERIES.pruneRateLimitsAndCodes(now)) await read(sql, write);
      return expired;
    },
    pruneBefore: (before) =>
      pg.transaction(async (tx) => {
        await calls.pruneCalls(tx, before);
        await replies.pruneReplies(tx, before);
        await leftovers.pruneRemovedDevices(tx, before);
      }),
  };
}
