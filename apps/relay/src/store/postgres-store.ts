import { ACCOUNT_QUERIES } from "./account-rows.js";
import { CALL_QUERIES } from "./call-rows.js";
import { FLEET_QUERIES, fleetPutOutcome } from "./fleet-rows.js";
import { GroupCommit } from "./group-commit.js";
import * as accounts from "./postgres-accounts.js";
import * as callStatus from "./postgres-call-status.js";
import * as calls from "./postgres-calls.js";
import { connectPostgres, type PostgresDatabase, read } from "./postgres-database.js";
import * as deliveries from "./postgres-deliveries.js";
import * as keyRotations from "./postgres-key-rotations.js";
import * as leftovers from "./postgres-leftovers.js";
import { latestPostgresMigration, migratePostgres } from "./postgres-migrations.js";
import * as push from "./postgres-push.js";
import * as pushClaims from "./postgres-push-claims.js";
import * as replies from "./postgres-replies.js";
import * as streamReads from "./postgres-stream-reads.js";
import { PUSH_QUERIES } from "./push-rows.js";
import { REPLY_QUERIES } from "./reply-rows.js";
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

    putFleetState: async (input) => {
      const isStored = await read(sql, FLEET_QUERIES.put(input));
      const last = isStored ? null : await read(sql, FLEET_QUERIES.receivedAt(input.computerId));
      return fleetPutOutcome(input, isStored, last);
    },
    fleetStates: (accountId) => read(sql, FLEET_QUERIES.ofAccount(accountId)),
    fleetState: (accountId, computerId) => read(sql, FLEET_QUERIES.ofComputer(accountId, computerId)),

    createPairingCode: (input) => accounts.createPairingCode(pg, input),
    redeemPairingCode: (input) => accounts.redeemPairingCode(pg, input),
    rateLimitState: (key, now) => read(sql, ACCOUNT_QUERIES.rateLimitState(key, now)),
    rateLimitHit: (key, now, windowMs) => read(sql, ACCOUNT_QUERIES.rateLimitHit(key, now, windowMs)),

    appendEvent: async (input) => (await calls.knownEvent(pg, input)) ?? appends.submit(input),
    accountUsage: (accountId) => calls.accountUsage(sql, accountId),
    getCall: (accountId, eventId) => read(sql, CALL_QUERIES.call(accountId, eventId)),
    setCallStatus: (input) => callStatus.setCallStatus(pg, input),
    streamSince: (accountId, afterSeq) => streamReads.streamSince(pg, accountId, afterSeq),
    pendingCalls: (accountId) => streamReads.pendingCalls(pg, accountId),
    streamPage: (...page) => streamReads.streamPage(pg, pageRequest(...page)),
    pendingCallsPage: (...page) => streamReads.pendingCallsPage(pg, pageRequest(...page)),

    recordDelivery: (input) => deliveries.recordDelivery(pg, input),

    enqueueReply: (input) => replies.enqueueReply(pg, input),
    queuedReplies: (deviceId) => read(sql, REPLY_QUERIES.queued(deviceId)),
    settleReply: (input) => replies.settleReply(pg, input),

    vapidKeys: (candidate) => push.vapidKeys(sql, candidate),
    setPushSubscription: (input) => push.setPushSubscription(pg, input),
    findPushSubscription: (deviceId) => read(sql, PUSH_QUERIES.subscription(deviceId)),
    removePushSubscription: (deviceId, endpoint) => push.removePushSubscription(pg, deviceId, endpoint),
    claimDuePushes: (now, exceptAccounts = []) => pushClaims.claimDuePushes(sql, now, exceptAccounts),
    pushCallAgain: (input) => push.pushCallAgain(pg, input),
    settlePush: (key, settlement) => read(sql, PUSH_QUERIES.settle(key, settlement)),
    takeSettledPushes: (input) => pushClaims.takeSettledPushes(sql, input),

    expireDue: async (now): Promise<StreamEntry[]> => {
      const expired = [...(await callStatus.expireCalls(pg, now)), ...(await replies.expireReplies(pg, now))];
      for (const write of ACCOUNT_QUERIES.pruneRateLimitsAndCodes(now)) await read(sql, write);
      return expired;
    },
    pruneBefore: (before) =>
      pg.transaction(async (tx) => {
        for (const write of CALL_QUERIES.prune(before)) await read(tx, write);
        await read(tx, REPLY_QUERIES.prune(before));
        await leftovers.pruneRemovedDevices(tx, before);
      }),
  };
}
