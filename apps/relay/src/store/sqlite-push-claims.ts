import { PUSH_PAYLOAD_MAX_BYTES } from "@ringback/protocol";
import { JOINED_SUBSCRIPTION_COLUMNS, PUSH_QUERIES, toDuePush, toKey, toSubscription } from "./push-rows.js";
import { integer, integerOrNull, type Row, type SqliteDatabase } from "./sqlite-database.js";
import {
  type DuePush,
  PUSH_CLAIM_BATCH_MAX,
  PUSH_CLAIM_PER_ACCOUNT_MAX,
  type PushSubscriptionRecord,
  SETTLED_PUSH_TAKE_WAIT_MS,
} from "./store.js";

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
      const subscription = row.subscribed === null ? null : db.read(PUSH_QUERIES.subscription(key.deviceId));
      if (!subscription) {
        db.read(PUSH_QUERIES.settle(key, { kind: "drop" }));
        continue;
      }
      if (!isRinging) {
        const until = waitsForTakeUntil(row, now, subscription.repeatSeconds * 1000);
        if (until === null) db.read(PUSH_QUERIES.settle(key, { kind: "drop" }));
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
      due.push(
        toDuePush(row, subscription, {
          expiresAt,
          attempt: integer(row.attempts) + 1,
          sealed:
            typeof row.sealed === "string" && row.sealed.length <= PUSH_PAYLOAD_MAX_BYTES ? row.sealed : null,
        }),
      );
    }
    return due;
  });
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
