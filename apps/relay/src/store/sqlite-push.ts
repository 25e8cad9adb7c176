import { PUSH_PAYLOAD_MAX_BYTES, ReportSource } from "@ringback/protocol";
import {
  JOINED_SUBSCRIPTION_COLUMNS,
  parseVapidKeys,
  SUBSCRIPTION_COLUMNS,
  toKey,
  toSubscription,
  VAPID_KEYS_SETTING,
} from "./push-rows.js";
import {
  integer,
  integerOrNull,
  type Row,
  type SqliteDatabase,
  text,
  textOrNull,
} from "./sqlite-database.js";
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
    db.run(
      "INSERT INTO relay_settings (name, value) VALUES (?, ?) ON CONFLICT(name) DO NOTHING",
      VAPID_KEYS_SETTING,
      JSON.stringify(candidate),
    );
    const row = db.get("SELECT value FROM relay_settings WHERE name = ?", VAPID_KEYS_SETTING);
    return parseVapidKeys(text(row?.value));
  });
}

export function setPushSubscription(
  db: SqliteDatabase,
  input: Omit<PushSubscriptionRecord, "updatedAt"> & { now: number },
): void {
  db.transaction(() => {
    const previous = db.get("SELECT endpoint FROM push_subscriptions WHERE device_id = ?", input.deviceId);
    db.run(
      `INSERT INTO push_subscriptions (${SUBSCRIPTION_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(device_id) DO UPDATE SET endpoint = excluded.endpoint, p256dh = excluded.p256dh,
         auth = excluded.auth, repeat_seconds = excluded.repeat_seconds, updated_at = excluded.updated_at`,
      input.deviceId,
      input.accountId,
      input.endpoint,
      input.p256dh,
      input.auth,
      input.repeatSeconds,
      input.now,
    );
    // A new endpoint starts afresh: what failed against the old one says nothing about it.
    if (previous && text(previous.endpoint) !== input.endpoint) {
      db.run("UPDATE push_deliveries SET failures = 0 WHERE device_id = ?", input.deviceId);
    }
  });
}

export function findPushSubscription(db: SqliteDatabase, deviceId: string): PushSubscriptionRecord | null {
  const row = db.get(`SELECT ${SUBSCRIPTION_COLUMNS} FROM push_subscriptions WHERE device_id = ?`, deviceId);
  return row ? toSubscription(row) : null;
}

export function removePushSubscription(db: SqliteDatabase, deviceId: string, endpoint?: string): boolean {
  return db.transaction(() => {
    const removed =
      endpoint === undefined
        ? db.run("DELETE FROM push_subscriptions WHERE device_id = ?", deviceId)
        : db.run("DELETE FROM push_subscriptions WHERE device_id = ? AND endpoint = ?", deviceId, endpoint);
    if (removed > 0) db.run("DELETE FROM push_deliveries WHERE device_id = ?", deviceId);
    return removed > 0;
  });
}

/** Schedules the first push of a new event; call inside `appendEvent`'s transaction. */
export function schedulePushes(
  db: SqliteDatabase,
  input: { accountId: string; eventId: string; fromDeviceId: string; now: number },
): void {
  db.run(
    `INSERT INTO push_deliveries (account_id, event_id, device_id, next_push_at)
     SELECT account_id, ?, device_id, ? FROM push_subscriptions WHERE account_id = ? AND device_id <> ?`,
    input.eventId,
    input.now,
    input.accountId,
    input.fromDeviceId,
  );
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
      due.push({
        ...key,
        subscription,
        seq: integer(row.seq),
        source: ReportSource.parse(row.source),
        occurredAt: text(row.occurred_at),
        receivedAt: integer(row.received_at),
        taskId: textOrNull(row.task_id),
        fromDeviceId: text(row.from_device_id),
        expiresAt,
        attempt: integer(row.attempts) + 1,
        failures: integer(row.failures),
        sealed:
          typeof row.sealed === "string" && row.sealed.length <= PUSH_PAYLOAD_MAX_BYTES ? row.sealed : null,
      });
    }
    return due;
  });
}

export function settlePush(db: SqliteDatabase, key: PushKey, settlement: PushSettlement): void {
  const where = "account_id = ? AND event_id = ? AND device_id = ?";
  switch (settlement.kind) {
    case "sent":
      db.run(
        `UPDATE push_deliveries SET failures = 0 WHERE ${where}`,
        key.accountId,
        key.eventId,
        key.deviceId,
      );
      return;
    case "retry":
      db.run(
        `UPDATE push_deliveries SET failures = failures + 1, next_push_at = ? WHERE ${where}`,
        settlement.at,
        key.accountId,
        key.eventId,
        key.deviceId,
      );
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
  db.run("DELETE FROM push_subscriptions WHERE device_id = ?", deviceId);
  db.run("DELETE FROM push_deliveries WHERE device_id = ?", deviceId);
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
  db.run(
    "DELETE FROM push_deliveries WHERE account_id = ? AND event_id = ? AND device_id = ?",
    key.accountId,
    key.eventId,
    key.deviceId,
  );
}
