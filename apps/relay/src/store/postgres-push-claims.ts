import { PUSH_PAYLOAD_MAX_BYTES } from "@ringback/protocol";
import { integer, type Queries, textOrNull } from "./postgres-database.js";
import { JOINED_SUBSCRIPTION_COLUMNS, toDuePush, toSubscription } from "./push-rows.js";
import {
  type DuePush,
  PUSH_CLAIM_BATCH_MAX,
  PUSH_CLAIM_PER_ACCOUNT_MAX,
  type PushSubscriptionRecord,
  SETTLED_PUSH_TAKE_WAIT_MS,
} from "./store.js";

/**
 * One statement: lock the due rows no other instance holds (SKIP LOCKED), move the ringing ones to their next
 * repeat and return them with their call and subscription, keep those a take of the settled call still needs, and
 * delete the rest.
 */
export async function claimDuePushes(
  db: Queries,
  now: number,
  exceptAccounts: readonly string[],
): Promise<DuePush[]> {
  const except = [...exceptAccounts];
  const rows = await db`
    WITH due AS (
      -- The accounts take turns (each one's earliest, then each one's next, ...), at most so many of one account;
      -- rows another instance holds are skipped.
      -- next_push_at is checked here too: a row another instance claimed (and moved on) meanwhile is re-checked
      -- against its new version once locked, and no longer due.
      SELECT account_id, event_id, device_id FROM push_deliveries
      WHERE next_push_at <= ${now} AND (account_id, event_id, device_id) IN (
        SELECT account_id, event_id, device_id FROM (
          SELECT account_id, event_id, device_id, next_push_at,
            ROW_NUMBER() OVER (PARTITION BY account_id ORDER BY next_push_at, event_id, device_id) AS turn
          FROM push_deliveries WHERE next_push_at <= ${now} AND NOT (account_id = ANY(${except}::text[]))
        ) ranked
        WHERE turn <= ${PUSH_CLAIM_PER_ACCOUNT_MAX}
        ORDER BY turn, next_push_at LIMIT ${PUSH_CLAIM_BATCH_MAX}
      )
      FOR UPDATE SKIP LOCKED
    ), ringing AS (
      UPDATE push_deliveries d SET next_push_at = ${now}::bigint + s.repeat_seconds::bigint * 1000, attempts = d.attempts + 1
      FROM due, events e, push_subscriptions s
      WHERE d.account_id = due.account_id AND d.event_id = due.event_id AND d.device_id = due.device_id
        AND e.account_id = d.account_id AND e.event_id = d.event_id AND e.status = 'pending'
        AND e.sealed IS NOT NULL AND e.expires_at > ${now} AND s.device_id = d.device_id
      RETURNING d.account_id, d.event_id, d.device_id, d.attempts, d.failures, e.seq, e.source, e.occurred_at,
        e.received_at, e.task_id, e.from_device_id, e.expires_at, s.account_id AS subscription_account_id,
        s.endpoint, s.p256dh, s.auth, s.repeat_seconds, s.updated_at,
        CASE WHEN length(e.sealed) <= ${PUSH_PAYLOAD_MAX_BYTES} THEN e.sealed END AS sealed_small
    ), waiting AS (
      -- Kept for takeSettledPushes: a call past its time that the sweep has not expired yet (the sweep takes it),
      -- or one that stopped ringing moments ago (the instance that committed that takes it).
      UPDATE push_deliveries d SET next_push_at = CASE WHEN e.status = 'pending'
          THEN ${now}::bigint + s.repeat_seconds::bigint * 1000
          ELSE e.status_at + ${SETTLED_PUSH_TAKE_WAIT_MS}::bigint END
      FROM due, events e, push_subscriptions s
      WHERE d.account_id = due.account_id AND d.event_id = due.event_id AND d.device_id = due.device_id
        AND e.account_id = d.account_id AND e.event_id = d.event_id AND s.device_id = d.device_id
        AND ((e.status = 'pending' AND e.sealed IS NOT NULL AND e.expires_at <= ${now})
          OR (e.status <> 'pending' AND e.status_at + ${SETTLED_PUSH_TAKE_WAIT_MS}::bigint > ${now}))
      RETURNING d.account_id, d.event_id, d.device_id
    ), gone AS (
      DELETE FROM push_deliveries d USING due
      WHERE d.account_id = due.account_id AND d.event_id = due.event_id AND d.device_id = due.device_id
        AND NOT EXISTS (SELECT 1 FROM ringing r WHERE r.account_id = d.account_id AND r.event_id = d.event_id
          AND r.device_id = d.device_id)
        AND NOT EXISTS (SELECT 1 FROM waiting w WHERE w.account_id = d.account_id AND w.event_id = d.event_id
          AND w.device_id = d.device_id)
    )
    SELECT * FROM ringing`;
  return rows.map((row) =>
    toDuePush(row, toSubscription({ ...row, account_id: row.subscription_account_id }), {
      expiresAt: integer(row.expires_at),
      attempt: integer(row.attempts),
      sealed: textOrNull(row.sealed_small),
    }),
  );
}

/** One statement: of two takes of one call, the second waits for the first's row locks and then finds nothing. */
export async function takeSettledPushes(
  db: Queries,
  input: { accountId: string; eventId: string; settledBy: string | null },
): Promise<PushSubscriptionRecord[]> {
  const rows = await db`
    WITH taken AS (
      DELETE FROM push_deliveries WHERE account_id = ${input.accountId} AND event_id = ${input.eventId}
      RETURNING device_id, attempts
    )
    SELECT ${db.unsafe(JOINED_SUBSCRIPTION_COLUMNS)}
    FROM taken t JOIN push_subscriptions s ON s.device_id = t.device_id
    WHERE t.attempts > 0 AND t.device_id IS DISTINCT FROM ${input.settledBy}::text
    ORDER BY s.device_id`;
  return rows.map(toSubscription);
}
