import { type PostgresDatabase, type Queries, query, read, text } from "./postgres-database.js";
import {
  PUSH_QUERIES,
  PUSH_SQL,
  parseVapidKeys,
  subscriptionParameters,
  VAPID_KEYS_SETTING,
} from "./push-rows.js";
import type { PushSubscriptionRecord, VapidKeys } from "./store.js";

/** Of several instances starting together, the first insert wins and every one reads the same pair back. */
export async function vapidKeys(db: Queries, candidate: VapidKeys): Promise<VapidKeys> {
  await query(db, PUSH_SQL.insertVapidKeys, [VAPID_KEYS_SETTING, JSON.stringify(candidate)]);
  const [row] = await query(db, PUSH_SQL.vapidKeys, [VAPID_KEYS_SETTING]);
  return parseVapidKeys(text(row?.value));
}

export function setPushSubscription(
  pg: PostgresDatabase,
  input: Omit<PushSubscriptionRecord, "updatedAt"> & { now: number },
): Promise<void> {
  return pg.transaction(async (tx) => {
    const [previous] = await query(tx, `${PUSH_SQL.endpoint} FOR UPDATE`, [input.deviceId]);
    await query(tx, PUSH_SQL.setSubscription, subscriptionParameters(input));
    if (previous && text(previous.endpoint) !== input.endpoint) {
      await query(tx, PUSH_SQL.resetFailures, [input.deviceId]);
    }
  });
}

export function removePushSubscription(
  pg: PostgresDatabase,
  deviceId: string,
  endpoint?: string,
): Promise<boolean> {
  return pg.transaction(async (tx) => {
    const removed =
      endpoint === undefined
        ? await query(tx, `${PUSH_SQL.deleteSubscription} RETURNING device_id`, [deviceId])
        : await query(tx, `${PUSH_SQL.deleteSubscriptionAt} RETURNING device_id`, [deviceId, endpoint]);
    if (removed.length > 0) await query(tx, PUSH_SQL.deleteDevicePushes, [deviceId]);
    return removed.length > 0;
  });
}

export function pushCallAgain(
  pg: PostgresDatabase,
  input: { accountId: string; eventId: string; fromDeviceId: string; now: number },
): Promise<number> {
  return pg.transaction(async (db) => {
    await read(db, PUSH_QUERIES.scheduleQuiet(input));
    const rows = await db`UPDATE push_deliveries d SET next_push_at = ${input.now}
    FROM events e
    WHERE d.account_id = ${input.accountId} AND d.event_id = ${input.eventId}
      AND e.account_id = d.account_id AND e.event_id = d.event_id AND e.from_device_id = ${input.fromDeviceId}
      AND e.status = 'pending' AND e.sealed IS NOT NULL
    RETURNING d.device_id`;
    return rows.length;
  });
}
