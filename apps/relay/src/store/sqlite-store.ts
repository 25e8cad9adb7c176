import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { isFinalCallStatus } from "@ringback/protocol";
import { ACCOUNT_QUERIES } from "./account-rows.js";
import { CALL_QUERIES } from "./call-rows.js";
import { FLEET_QUERIES, fleetPutOutcome } from "./fleet-rows.js";
import { GroupCommit } from "./group-commit.js";
import { PUSH_QUERIES } from "./push-rows.js";
import { REPLY_QUERIES } from "./reply-rows.js";
import * as accounts from "./sqlite-accounts.js";
import * as callStatus from "./sqlite-call-status.js";
import * as calls from "./sqlite-calls.js";
import { SqliteDatabase } from "./sqlite-database.js";
import * as deliveries from "./sqlite-deliveries.js";
import * as keyRotations from "./sqlite-key-rotations.js";
import * as leftovers from "./sqlite-leftovers.js";
import { latestMigrationVersion, migrate } from "./sqlite-migrations.js";
import * as push from "./sqlite-push.js";
import * as pushClaims from "./sqlite-push-claims.js";
import * as replies from "./sqlite-replies.js";
import * as streamReads from "./sqlite-stream-reads.js";
import type { AppendEventResult, NewEvent, RelayStore, StreamEntry } from "./store.js";
import { pageRequest } from "./stream-pages.js";

/** The database file under the relay's data directory. */
const SQLITE_FILE_NAME = "relay.db";

/**
 * Opens (creating and migrating) `relay.db` in `dataDir`. `node:sqlite` is synchronous, so every operation below
 * runs to completion without interleaving inside this process; transactions keep it atomic across processes.
 */
export function openSqliteStore(dataDir: string): RelayStore {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const db = new SqliteDatabase(join(dataDir, SQLITE_FILE_NAME));
  try {
    migrate(db.raw);
  } catch (error) {
    db.close();
    throw error;
  }
  return sqliteStore(db);
}

function sqliteStore(db: SqliteDatabase): RelayStore {
  // Each method is async to match the interface; the work itself happens synchronously inside. Every operation
  // that erases ciphertext (a call ending, a reply settled or failed) checkpoints, so the erased bytes leave the WAL.
  return {
    kind: "sqlite",
    migrationVersion: async () => latestMigrationVersion(db.raw),
    close: async () => db.close(),
    ...accountMethods(db),
    ...callMethods(db),
    ...replyMethods(db),
    ...pushMethods(db),
    ...upkeepMethods(db),
  };
}

/** Accounts, devices, pairing codes, key rotations, fleet states and rate limits. */
function accountMethods(db: SqliteDatabase) {
  return {
    hasAccounts: async () => db.read(ACCOUNT_QUERIES.hasAccounts()),
    setClaimCodeHash: async (codeHash) => db.read(ACCOUNT_QUERIES.setClaimCodeHash(codeHash)),
    claimRelay: async (input) => accounts.claimRelay(db, input),
    createAccount: async (input) => accounts.createAccount(db, input),

    findDeviceByTokenHash: async (tokenHash) => db.read(ACCOUNT_QUERIES.deviceByTokenHash(tokenHash)),
    touchDevice: async (deviceId, now, minIntervalMs) =>
      db.read(ACCOUNT_QUERIES.touchDevice(deviceId, now, minIntervalMs)),
    findDevice: async (accountId, deviceId) => db.read(ACCOUNT_QUERIES.device(accountId, deviceId)),
    listDevices: async (accountId) => db.read(ACCOUNT_QUERIES.devices(accountId, "rowid")),
    // Checkpointed like an erasure: the name it replaces (an older client's plaintext) leaves the WAL too.
    renameDevice: async (input) => {
      const isRenamed = db.read(ACCOUNT_QUERIES.renameDevice(input));
      if (isRenamed) db.checkpoint();
      return isRenamed;
    },
    removeDevice: async (input) => {
      const removal = accounts.removeDevice(db, input);
      if (removal.entries.length > 0) db.checkpoint();
      return removal;
    },

    addKeyRotation: async (input) => keyRotations.addKeyRotation(db, input),
    keyRotations: async (accountId) => keyRotations.keyRotations(db, accountId),

    putFleetState: async (input) => {
      const isStored = db.read(FLEET_QUERIES.put(input));
      return fleetPutOutcome(
        input,
        isStored,
        isStored ? null : db.read(FLEET_QUERIES.receivedAt(input.computerId)),
      );
    },
    fleetStates: async (accountId) => db.read(FLEET_QUERIES.ofAccount(accountId)),
    fleetState: async (accountId, computerId) => db.read(FLEET_QUERIES.ofComputer(accountId, computerId)),

    createPairingCode: async (input) => accounts.createPairingCode(db, input),
    redeemPairingCode: async (input) => accounts.redeemPairingCode(db, input),
    rateLimitState: async (key, now) => db.read(ACCOUNT_QUERIES.rateLimitState(key, now)),
    rateLimitHit: async (key, now, windowMs) => db.read(ACCOUNT_QUERIES.rateLimitHit(key, now, windowMs)),
  } satisfies Partial<RelayStore>;
}

/** Calls, their status and delivery records, and the account's stream. */
function callMethods(db: SqliteDatabase) {
  // Events posted at once commit together: one transaction (one fsync) per turn of the event loop under load.
  const appends = new GroupCommit<NewEvent, AppendEventResult>(
    "next-turn",
    (inputs) => db.transaction(() => inputs.map((input) => calls.appendEvent(db, input))),
    (input) => calls.appendEvent(db, input),
  );
  return {
    appendEvent: (input) => appends.submit(input),
    accountUsage: async (accountId) => calls.accountUsage(db, accountId),
    getCall: async (accountId, eventId) => db.read(CALL_QUERIES.call(accountId, eventId)),
    setCallStatus: async (input) => {
      const outcome = callStatus.setCallStatus(db, input);
      if (outcome.kind === "changed" && isFinalCallStatus(outcome.status)) db.checkpoint();
      return outcome;
    },
    streamSince: async (accountId, afterSeq) => streamReads.streamSince(db, accountId, afterSeq),
    pendingCalls: async (accountId) => streamReads.pendingCalls(db, accountId),
    streamPage: async (...page) => streamReads.streamPage(db, pageRequest(...page)),
    pendingCallsPage: async (...page) => streamReads.pendingCallsPage(db, pageRequest(...page)),

    recordDelivery: async (input) => deliveries.recordDelivery(db, input),
  } satisfies Partial<RelayStore>;
}

function replyMethods(db: SqliteDatabase) {
  return {
    enqueueReply: async (input) => replies.enqueueReply(db, input),
    queuedReplies: async (deviceId) => db.read(REPLY_QUERIES.queued(deviceId)),
    settleReply: async (input) => {
      const entry = replies.settleReply(db, input);
      if (entry) db.checkpoint();
      return entry;
    },
  } satisfies Partial<RelayStore>;
}

function pushMethods(db: SqliteDatabase) {
  return {
    vapidKeys: async (candidate) => push.vapidKeys(db, candidate),
    setPushSubscription: async (input) => push.setPushSubscription(db, input),
    findPushSubscription: async (deviceId) => db.read(PUSH_QUERIES.subscription(deviceId)),
    removePushSubscription: async (deviceId, endpoint) => push.removePushSubscription(db, deviceId, endpoint),
    claimDuePushes: async (now, exceptAccounts = []) => pushClaims.claimDuePushes(db, now, exceptAccounts),
    pushCallAgain: async (input) => push.pushCallAgain(db, input),
    settlePush: async (key, settlement) => db.read(PUSH_QUERIES.settle(key, settlement)),
    takeSettledPushes: async (input) => pushClaims.takeSettledPushes(db, input),
  } satisfies Partial<RelayStore>;
}

/** The sweeps: expiry of calls and replies, and forgetting what is past keeping. */
function upkeepMethods(db: SqliteDatabase) {
  return {
    expireDue: async (now): Promise<StreamEntry[]> => {
      const expired = [...callStatus.expireCalls(db, now), ...replies.expireReplies(db, now)];
      for (const write of ACCOUNT_QUERIES.pruneRateLimitsAndCodes(now)) db.read(write);
      if (expired.length > 0) db.checkpoint();
      return expired;
    },
    pruneBefore: async (before) => {
      db.transaction(() => {
        for (const write of CALL_QUERIES.prune(before)) db.read(write);
        db.read(REPLY_QUERIES.prune(before));
        leftovers.pruneRemovedDevices(db, before);
      });
      db.checkpoint();
    },
  } satisfies Partial<RelayStore>;
}
