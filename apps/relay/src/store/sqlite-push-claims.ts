import { PUSH_PAYLOAD_MAX_BYTES } from "@ringback/protocol";
import { JOINED_SUBSCRIPTION_COLUMNS, PUSH_QUERIES, toDuePush, toKey, toSubscription } from "./push-rows.js";
import { integer, integerOrNull, type Row, type SqliteDatabase } from "./sqlite-database.js";
import {
  type DuePush,
  PUSH_CLAIM_BATCH_MAX,
  PUSH_CLAIM_PER_ACCOUNT_MAX,
  type PushKey,
  type PushSubscriptionRecord,
  SETTLED_PUSH_TAKE_WAIT_MS,
} from "./store.js";

/**
 * Claims the pushes due at `now` (see `RelayStore.claimDuePushes`). The claim is committed without waiting for the
 * disk: the push goes out one fsync sooner, and a claim a power cut undoes only sends that push once more (its topic
 * replaces the first on the device).
 */
export function claimDuePushes(
  db: SqliteDatabase,
  now: number,
  exceptAccounts: readonly string[],
): DuePush[] {
  const except = JSON.stringify(exceptAccounts);
  // Looked at every second: a plain read first, so an idle relay never takes the write lock for nothing.
  if (!isAnyPushDue(db, now, except)) return [];
  return db.transactionWithoutSync(() => {
    const due: DuePush[] = [];
    for (const row of duePushRows(db, now, except)) {
      const push = claimRow(db, row, now);
      if (push) due.push(push);
    }
    return due;
  });
}

function isAnyPushDue(db: SqliteDatabase, now: number, except: string): boolean {
  const row = db.get(
    `SELECT 1 AS due FROM push_deliveries
     WHERE next_push_at <= ? AND account_id NOT IN (SELECT value FROM json_each(?)) LIMIT 1`,
    now,
    except,
  );
  return row !== undefined;
}

/**
 * The due delivery rows with their call and subscription (`subscribed` null: none), the accounts taking turns, at
 * most `PUSH_CLAIM_PER_ACCOUNT_MAX` of one account and `PUSH_CLAIM_BATCH_MAX` in all.
 */
function duePushRows(db: SqliteDatabase, now: number, except: string): Row[] {
  return db.all(
    `SELECT d.account_id, d.event_id, d.device_id, d.attempts, d.failures,
       e.status, e.sealed, e.seq, e.source, e.occurred_at, e.received_at, e.task_id, e.from_device_id,
       e.expires_at, e.status_at, s.device_id AS subscribed, s.account_id AS subscription_account_id,
       s.endpoint, s.p256dh, s.auth, s.repeat_seconds, s.updated_at
     FROM (
       SELECT *, ROW_NUMBER() OVER (PARTITION BY account_id ORDER BY next_push_at, event_id, device_id) AS turn
       FROM push_deliveries WHERE next_push_at <= ? AND account_id NOT IN (SELECT value FROM json_each(?))
     ) d
     LEFT JOIN events e ON e.account_id = d.account_id AND e.event_id = d.event_id
     LEFT JOIN push_subscriptions s ON s.device_id = d.device_id
     WHERE d.turn <= ? ORDER BY d.turn, d.next_push_at LIMIT ?`,
    now,
    except,
    PUSH_CLAIM_PER_ACCOUNT_MAX,
    PUSH_CLAIM_BATCH_MAX,
  );
}

/**
 * One due row: a ringing call's push moves to its next repeat and is returned; one of a call no longer ringing is
 * kept for `takeSettledPushes` a while or forgotten, and so is one whose device has no subscription.
 */
function claimRow(db: SqliteDatabase, row: Row, now: number): DuePush | null {
  const key = toKey(row);
  if (row.subscribed === null) {
    db.read(PUSH_QUERIES.settle(key, { kind: "drop" }));
    return null;
  }
  const subscription = toSubscription({
    ...row,
    device_id: row.subscribed,
    account_id: row.subscription_account_id,
  });
  const repeatMs = subscription.repeatSeconds * 1000;
  const expiresAt = integerOrNull(row.expires_at);
  const isRinging = row.status === "pending" && row.sealed !== null && expiresAt !== null && expiresAt > now;
  if (!isRinging) {
    const until = waitsForTakeUntil(row, now, repeatMs);
    if (until === null) db.read(PUSH_QUERIES.settle(key, { kind: "drop" }));
    else
      db.run(`UPDATE push_deliveries SET next_push_at = ? WHERE ${KEY_MATCH}`, until, ...keyParameters(key));
    return null;
  }
  db.run(
    `UPDATE push_deliveries SET next_push_at = ?, attempts = attempts + 1 WHERE ${KEY_MATCH}`,
    now + repeatMs,
    ...keyParameters(key),
  );
  return toDuePush(row, subscription, {
    expiresAt,
    attempt: integer(row.attempts) + 1,
    sealed: typeof row.sealed === "string" && row.sealed.length <= PUSH_PAYLOAD_MAX_BYTES ? row.sealed : null,
  });
}

const KEY_MATCH = "account_id = ? AND event_id = ? AND device_id = ?";

function keyParameters(key: PushKey): [string, string, string] {
  return [key.accountId, key.eventId, key.deviceId];
}

export function takeSettledPushes(
  db: SqliteDatabase,
  input: { accountId: string; eventId: string; settledBy: string | null },
): PushSubscriptionRecord[] {
  return db.transaction(() => {
    const rows = db.all(
      `SELECT ${JOINED_SUBSCRIPTION_COLUMNS}
       FROM push_deliveries d JOIN push_subscriptions s ON s.device_id = d.device_id
       WHERE d.account_id = ? AND d.event_id = ? AND d.attempts > 0 AND d.device_id IS NOT ?
       ORDER BY s.device_id`,
      input.accountId,
      input.eventId,
      input.settledBy,
    );
    db.run(
      "DELETE FROM push_deliveries WHERE account_id = ? AND event_id = ?",
      input.accountId,
      input.eventId,
    );
    return rows.map(toSubscription);
  });
}

/**
 * Until when a due push of a call no longer ringing is kept for `takeSettledPushes` rather than forgotten (null:
 * forgotten now): a call past its time that the sweep has not expired yet (the sweep takes it), or one that stopped
 * ringing less than `SETTLED_PUSH_TAKE_WAIT_MS` ago (the instance that committed that takes it).
 */
function waitsForTakeUntil(row: Row, now: number, repeatMs: number): number | null {
  if (row.status === "pending") {
    const expiresAt = integerOrNull(row.expires_at);
    return row.sealed !== null && expiresAt !== null && expiresAt <= now ? now + repeatMs : null;
  }
  const statusAt = integerOrNull(row.status_at);
  const until = statusAt === null ? null : statusAt + SETTLED_PUSH_TAKE_WAIT_MS;
  return until !== null && until > now ? until : null;
}
