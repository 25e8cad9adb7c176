import {
  JOINED_SUBSCRIPTION_COLUMNS,
  keyParameters,
  PUSH_SQL,
  parseVapidKeys,
  subscriptionParameters,
  toDuePush,
  toKey,
  toSubscription,
  VAPID_KEYS_SETTING,
} from "./push-rows.js";
import { integer, integerOrNull, type Row, type SqliteDatabase, text } from "./sqlite-database.js";
import {
  type DuePush,
  PUSH_CLAIM_BATCH_MAX,
  PUSH_CLAIM_PER_ACCOUNT_MAX,
  type PushKey,
  type PushSettlement,
  type PushSubscriptionRecord,
  SETTLED_PUSH_TAKE_WAIT_MS,
  type VapidKeys,
} from "./store.js";

export function vapidKeys(db: SqliteDatabase, candidate: VapidKeys): VapidKeys {
  return db.transaction(() => {
    db.run(PUSH_SQL.insertVapidKeys, VAPID_KEYS_SETTING, JSON.stringify(candidate));
    const row = db.get(PUSH_SQL.vapidKeys, VAPID_KEYS_SETTING);
    return parseVapidKeys(text(row?.value));
  });
}

export function setPushSubscription(
  db: SqliteDatabase,
  input: Omit<PushSubscriptionRecord, "updatedAt"> & { now: number },
): void {
  db.transaction(() => {
    const previous = db.get(PUSH_SQL.endpoint, input.deviceId);
    db.run(PUSH_SQL.setSubscription, ...subscriptionParameters(input));
    if (previous && text(previous.endpoint) !== input.endpoint)
      db.run(PUSH_SQL.resetFailures, input.deviceId);
  });
}

export function findPushSubscription(db: SqliteDatabase, deviceId: string): PushSubscriptionRecord | null {
  const row = db.get(PUSH_SQL.subscription, deviceId);
  return row ? toSubscription(row) : null;
}

export function removePushSubscription(db: SqliteDatabase, deviceId: string, endpoint?: string): boolean {
  return db.transaction(() => {
    const removed =
      endpoint === undefined
        ? db.run(PUSH_SQL.deleteSubscription, deviceId)
        : db.run(PUSH_SQL.deleteSubscriptionAt, deviceId, endpoint);
    if (removed > 0) db.run(PUSH_SQL.deleteDevicePushes, deviceId);
    return removed > 0;
  });
}

/** Schedules the first push of a new event; call inside `appendEvent`'s transaction. */
export function schedulePushes(
  db: SqliteDatabase,
  input: { accountId: string; eventId: string; fromDeviceId: string; now: number },
): void {
  db.run(PUSH_SQL.schedule, input.eventId, input.now, input.accountId, input.fromDeviceId);
}

export function claimDuePushes(
  db: SqliteDatabase,
  now: number,
  exceptAccounts: readonly string[],
): DuePush[] {
  const except = JSON.stringify(exceptAccounts);
  // Looked at every second: a plain read first, so an idle relay never takes the write lock for nothing.
  const isAnyDue = db.get(
    `SELECT 1 AS due FROM push_deliveries
     WHERE next_push_at <= ? AND account_id NOT IN (SELECT value FROM json_each(?)) LIMIT 1`,
    now,
    except,
  );
  if (!isAnyDue) return [];
  return db.transaction(() => {
    const rows = db.all(
      `SELECT d.account_id, d.event_id, d.device_id, d.attempts, d.failures,
         e.status, e.sealed, e.seq, e.source, e.occurred_at, e.received_at, e.task_id, e.from_device_id,
         e.expires_at, e.status_at, s.device_id AS subscribed
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
    const due: DuePush[] = [];
    for (const row of rows) {
      const key = toKey(row);
      const expiresAt = integerOrNull(row.expires_at);
      const isRinging =
        row.status === "pending" &&
        row.sealed !== null &&
        row.subscribed !== null &&
        expiresAt !== null &&
        expiresAt > now;
      const subscription = row.subscribed === null ? null : findPushSubscription(db, key.deviceId);
      if (!subscription) {
        deleteDelivery(db, key);
        continue;
      }
      if (!isRinging) {
        const until = waitsForTakeUntil(row, now, subscription.repeatSeconds * 1000);
        if (until === null) deleteDelivery(db, key);
        else
          db.run(
            "UPDATE push_deliveries SET next_push_at = ? WHERE account_id = ? AND event_id = ? AND device_id = ?",
            until,
            key.accountId,
            key.eventId,
            key.deviceId,
          );
        continue;
      }
      db.run(
        `UPDATE push_deliveries SET next_push_at = ?, attempts = attempts + 1
         WHERE account_id = ? AND event_id = ? AND device_id = ?`,
        now + subscription.repeatSeconds * 1000,
        key.accountId,
        key.eventId,
        key.deviceId,
      );
      due.push(toDuePush(row, subscription, { expiresAt, attempt: integer(row.attempts) + 1 }));
    }
    return due;
  });
}

export function settlePush(db: SqliteDatabase, key: PushKey, settlement: PushSettlement): void {
  switch (settlement.kind) {
    case "sent":
      db.run(PUSH_SQL.sent, ...keyParameters(key));
      return;
    case "retry":
      db.run(PUSH_SQL.retry, settlement.at, ...keyParameters(key));
      return;
    case "drop":
      deleteDelivery(db, key);
      return;
  }
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

/** Forgets a removed device's subscription and pushes; call inside `removeDevice`'s transaction. */
export function forgetDevicePush(db: SqliteDatabase, deviceId: string): void {
  db.run(PUSH_SQL.deleteSubscription, deviceId);
  db.run(PUSH_SQL.deleteDevicePushes, deviceId);
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

function deleteDelivery(db: SqliteDatabase, key: PushKey): void {
  db.run(PUSH_SQL.drop, ...keyParameters(key));
}
