import { ACCOUNT_QUERIES } from "./account-rows.js";
import { CALL_QUERIES, CALL_SQL, eventParameters, newCallEntry } from "./call-rows.js";
import { eventFits } from "./event-quota.js";
import { PUSH_QUERIES } from "./push-rows.js";
import { integer, type SqliteDatabase } from "./sqlite-database.js";
import { nextSeq } from "./sqlite-rows.js";
import type { AccountUsage, AppendEventResult, NewEvent } from "./store.js";

export function appendEvent(db: SqliteDatabase, input: NewEvent): AppendEventResult {
  return db.transaction(() => {
    const existing = db.read(CALL_QUERIES.existing(input));
    if (existing) return existing;
    const { taskId } = input;
    if (taskId !== null && db.read(CALL_QUERIES.sameTask({ ...input, taskId })))
      return { kind: "duplicate_task" };
    // The account's quota, in the insert's write transaction (with every event of a group commit before it).
    const usage = accountUsage(db, input.accountId);
    if (!eventFits(usage, input.limits, input.sealed)) return { kind: "full", usage };
    const seq = nextSeq(db, input.accountId);
    db.run(CALL_SQL.insertEvent, ...eventParameters(input, seq));
    db.read(CALL_QUERIES.insertCallEntry(input, seq));
    for (const write of PUSH_QUERIES.schedule(input)) db.read(write);
    const { countsIn } = input;
    if (countsIn) db.read(ACCOUNT_QUERIES.rateLimitHit(countsIn.key, input.receivedAt, countsIn.windowMs));
    return { kind: "created", entry: newCallEntry(input, seq) };
  });
}

/**
 * The account's calls that still hold ciphertext, its queued replies, and both's bytes: from the `events_open_usage`
 * and `replies_queued_usage` indexes alone.
 */
export function accountUsage(db: SqliteDatabase, accountId: string): AccountUsage {
  const calls = db.get(
    `SELECT COUNT(*) AS n, COALESCE(SUM(sealed_bytes), 0) AS bytes FROM events
     WHERE account_id = ? AND expires_at IS NOT NULL`,
    accountId,
  );
  const replies = db.get(
    `SELECT COUNT(*) AS n, COALESCE(SUM(sealed_bytes), 0) AS bytes FROM replies
     WHERE account_id = ? AND status = 'queued'`,
    accountId,
  );
  return {
    openCalls: integer(calls?.n),
    queuedReplies: integer(replies?.n),
    sealedBytes: integer(calls?.bytes) + integer(replies?.bytes),
  };
}
