import {
  PUSH_QUERIES,
  PUSH_SQL,
  parseVapidKeys,
  subscriptionParameters,
  VAPID_KEYS_SETTING,
} from "./push-rows.js";
import { type SqliteDatabase, text } from "./sqlite-database.js";
import type { PushSubscriptionRecord, VapidKeys } from "./store.js";

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

export function pushCallAgain(
  db: SqliteDatabase,
  input: { accountId: string; eventId: string; fromDeviceId: string; now: number },
): number {
  return db.transaction(() => {
    db.read(PUSH_QUERIES.scheduleQuiet(input));
    return db.run(
      `UPDATE push_deliveries SET next_push_at = ?
     WHERE account_id = ? AND event_id = ? AND EXISTS (
       SELECT 1 FROM events e WHERE e.account_id = push_deliveries.account_id AND e.event_id = push_deliveries.event_id
         AND e.from_device_id = ? AND e.status = 'pending' AND e.sealed IS NOT NULL)`,
      input.now,
      input.accountId,
      input.eventId,
      input.fromDeviceId,
    );
  });
}
