import { integer, text } from "./columns.js";
import type { Row } from "./row-records.js";
import type { PushKey, PushSubscriptionRecord, VapidKeys } from "./store.js";

/** The `relay_settings` row holding the VAPID key pair (JSON), in both stores. */
export const VAPID_KEYS_SETTING = "vapid_keys";

export function parseVapidKeys(value: string): VapidKeys {
  const parsed = JSON.parse(value) as Partial<VapidKeys>;
  if (typeof parsed.publicKey !== "string" || typeof parsed.privateKey !== "string") {
    throw new Error("The stored VAPID keys are malformed.");
  }
  return { publicKey: parsed.publicKey, privateKey: parsed.privateKey };
}

export const SUBSCRIPTION_COLUMNS =
  "device_id, account_id, endpoint, p256dh, auth, repeat_seconds, updated_at";
/** The same columns of `push_subscriptions s` in a join. */
export const JOINED_SUBSCRIPTION_COLUMNS =
  "s.device_id, s.account_id, s.endpoint, s.p256dh, s.auth, s.repeat_seconds, s.updated_at";

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
