import { ReportSource } from "@ringback/protocol";
import { integer, type Row, text, textOrNull } from "./columns.js";
import type {
  DuePush,
  NewEvent,
  PushKey,
  PushSettlement,
  PushSubscriptionRecord,
  VapidKeys,
} from "./store.js";
import { firstOrNull, storeQuery, storeWrite } from "./store-query.js";

/** The `relay_settings` row holding the VAPID key pair (JSON), in both stores. */
export const VAPID_KEYS_SETTING = "vapid_keys";

export function parseVapidKeys(value: string): VapidKeys {
  const parsed = JSON.parse(value) as Partial<VapidKeys>;
  if (typeof parsed.publicKey !== "string" || typeof parsed.privateKey !== "string") {
    throw new Error("The stored VAPID keys are malformed.");
  }
  return { publicKey: parsed.publicKey, privateKey: parsed.privateKey };
}

const SUBSCRIPTION_COLUMNS = "device_id, account_id, endpoint, p256dh, auth, repeat_seconds, updated_at";
/** The same columns of `push_subscriptions s` in a join. */
export const JOINED_SUBSCRIPTION_COLUMNS =
  "s.device_id, s.account_id, s.endpoint, s.p256dh, s.auth, s.repeat_seconds, s.updated_at";

/** The push statements both stores run as they are (`?` placeholders); a store adds only its own locking. */
export const PUSH_SQL = {
  insertVapidKeys: "INSERT INTO relay_settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING",
  vapidKeys: "SELECT value FROM relay_settings WHERE name = ?",
  endpoint: "SELECT endpoint FROM push_subscriptions WHERE device_id = ?",
  setSubscription: `INSERT INTO push_subscriptions (${SUBSCRIPTION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (device_id) DO UPDATE SET endpoint = excluded.endpoint, p256dh = excluded.p256dh,
      auth = excluded.auth, repeat_seconds = excluded.repeat_seconds, updated_at = excluded.updated_at`,
  /** A new endpoint starts afresh: what failed against the old one says nothing about it. */
  resetFailures: "UPDATE push_deliveries SET failures = 0 WHERE device_id = ?",
  subscription: `SELECT ${SUBSCRIPTION_COLUMNS} FROM push_subscriptions WHERE device_id = ?`,
  deleteSubscription: "DELETE FROM push_subscriptions WHERE device_id = ?",
  deleteSubscriptionAt: "DELETE FROM push_subscriptions WHERE device_id = ? AND endpoint = ?",
  deleteDevicePushes: "DELETE FROM push_deliveries WHERE device_id = ?",
  /** The first push of a new event (event, now, account, posting device) to every other subscribed device. */
  schedule: `INSERT INTO push_deliveries (account_id, event_id, device_id, next_push_at)
    SELECT account_id, ?, device_id, ? FROM push_subscriptions WHERE account_id = ? AND device_id <> ?`,
  /**
   * The pushes of a quiet call its computer now rings (now, account, event, posting device): to every other subscribed
   * device, while the call is pending.
   */
  scheduleQuiet: `INSERT INTO push_deliveries (account_id, event_id, device_id, next_push_at)
    SELECT s.account_id, e.event_id, s.device_id, ?1 FROM push_subscriptions s
      JOIN events e ON e.account_id = s.account_id
    WHERE e.account_id = ?2 AND e.event_id = ?3 AND e.from_device_id = ?4 AND e.ring = 'quiet'
      AND e.status = 'pending' AND e.sealed IS NOT NULL AND s.device_id <> ?4
    ON CONFLICT DO NOTHING`,
  sent: "UPDATE push_deliveries SET failures = 0 WHERE account_id = ? AND event_id = ? AND device_id = ?",
  retry: `UPDATE push_deliveries SET failures = failures + 1, next_push_at = ?
    WHERE account_id = ? AND event_id = ? AND device_id = ?`,
  drop: "DELETE FROM push_deliveries WHERE account_id = ? AND event_id = ? AND device_id = ?",
} as const;

/** The push reads and writes both stores run the same way. */
export const PUSH_QUERIES = {
  subscription: (deviceId: string) =>
    storeQuery(PUSH_SQL.subscription, [deviceId], firstOrNull(toSubscription)),
  /** Schedules the first push of a new event (none for a quiet one); run inside the event's insert transaction. */
  schedule: (input: NewEvent) =>
    input.ring === "quiet"
      ? []
      : [
          storeWrite(PUSH_SQL.schedule, [
            input.eventId,
            input.receivedAt,
            input.accountId,
            input.fromDeviceId,
          ]),
        ],
  /** Schedules the pushes of a pending quiet call its computer rings now (nothing for any other call). */
  scheduleQuiet: (input: { accountId: string; eventId: string; fromDeviceId: string; now: number }) =>
    storeWrite(PUSH_SQL.scheduleQuiet, [input.now, input.accountId, input.eventId, input.fromDeviceId]),
  /** What became of a claimed push: sent (its failures start again), a retry at a time, or dropped. */
  settle: (key: PushKey, settlement: PushSettlement) => {
    const keyParameters = [key.accountId, key.eventId, key.deviceId];
    switch (settlement.kind) {
      case "sent":
        return storeWrite(PUSH_SQL.sent, keyParameters);
      case "retry":
        return storeWrite(PUSH_SQL.retry, [settlement.at, ...keyParameters]);
      case "drop":
        return storeWrite(PUSH_SQL.drop, keyParameters);
    }
  },
  /** Forgets a removed device's subscription and pushes; run inside the removal's transaction. */
  forgetDevice: (deviceId: string) => [
    storeWrite(PUSH_SQL.deleteSubscription, [deviceId]),
    storeWrite(PUSH_SQL.deleteDevicePushes, [deviceId]),
  ],
} as const;

/** The parameters of `PUSH_SQL.setSubscription`. */
export function subscriptionParameters(
  input: Omit<PushSubscriptionRecord, "updatedAt"> & { now: number },
): [string, string, string, string, string, number, number] {
  return [
    input.deviceId,
    input.accountId,
    input.endpoint,
    input.p256dh,
    input.auth,
    input.repeatSeconds,
    input.now,
  ];
}

/**
 * A claimed push from its delivery row joined with its call, for `subscription`, as its `attempt`th push, carrying
 * the sealed call when it fits in a push (`PUSH_PAYLOAD_MAX_BYTES`).
 */
export function toDuePush(
  row: Row,
  subscription: PushSubscriptionRecord,
  push: { expiresAt: number; attempt: number; sealed: string | null },
): DuePush {
  return {
    ...toKey(row),
    subscription,
    seq: integer(row.seq),
    source: ReportSource.parse(row.source),
    occurredAt: text(row.occurred_at),
    receivedAt: integer(row.received_at),
    taskId: textOrNull(row.task_id),
    fromDeviceId: text(row.from_device_id),
    expiresAt: push.expiresAt,
    attempt: push.attempt,
    failures: integer(row.failures),
    sealed: push.sealed,
  };
}

export function toKey(row: Row): PushKey {
  return { accountId: text(row.account_id), eventId: text(row.event_id), deviceId: text(row.device_id) };
}

export function toSubscription(row: Row): PushSubscriptionRecord {
  return {
    deviceId: text(row.device_id),
    accountId: text(row.account_id),
    endpoint: text(row.endpoint),
    p256dh: text(row.p256dh),
    auth: text(row.auth),
    repeatSeconds: integer(row.repeat_seconds),
    updatedAt: integer(row.updated_at),
  };
}
