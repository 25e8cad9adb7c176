import { type CallStatus, isFinalCallStatus } from "@ringback/protocol";
import {
  CALL_QUERIES,
  callStatusEntry,
  callStatusRefusal,
  expiredCallEntry,
  mayChangeCallStatus,
} from "./call-rows.js";
import { type SqliteDatabase, text } from "./sqlite-database.js";
import { appendStatusEntry, nextSeq } from "./sqlite-rows.js";
import { type CallStatusInput, type CallStatusOutcome, EXPIRY_BATCH_MAX, type StreamEntry } from "./store.js";

export function setCallStatus(db: SqliteDatabase, input: CallStatusInput): CallStatusOutcome {
  return db.transaction(() => {
    const row = db.read(CALL_QUERIES.callStatus(input));
    if (row && mayChangeCallStatus(row, input))
      return changeStatus(db, input, text(row.status) as CallStatus);
    return callStatusRefusal(row, input);
  });
}

function changeStatus(db: SqliteDatabase, input: CallStatusInput, from: CallStatus): CallStatusOutcome {
  const isFinal = isFinalCallStatus(input.status);
  // Conditional on the status read above: the first answer wins even if another process raced past the read.
  const changed = db.run(
    `UPDATE events SET status = ?, status_device_id = ?, status_at = ?,
       sealed = CASE WHEN ? THEN NULL ELSE sealed END, expires_at = ?
     WHERE account_id = ? AND event_id = ? AND status = ?`,
    input.status,
    input.deviceId,
    input.now,
    isFinal ? 1 : 0,
    isFinal ? null : input.answeredExpiresAt,
    input.accountId,
    input.eventId,
    from,
  );
  if (changed === 0) throw new Error("The call changed during its own transaction.");
  const seq = nextSeq(db, input.accountId);
  const entry = callStatusEntry(input, seq);
  appendStatusEntry(db, entry, input.now);
  return { kind: "changed", status: input.status, entry };
}

/** Expires open calls (pending or answered) due at `now`, erasing their ciphertext. */
export function expireCalls(db: SqliteDatabase, now: number): StreamEntry[] {
  return db.transaction(() => {
    const due = db.all(
      "SELECT account_id, event_id, status FROM events WHERE expires_at IS NOT NULL AND expires_at <= ? LIMIT ?",
      now,
      EXPIRY_BATCH_MAX,
    );
    return due.map((row): StreamEntry => {
      const accountId = text(row.account_id);
      const eventId = text(row.event_id);
      db.read(CALL_QUERIES.expire(accountId, eventId, now));
      const seq = nextSeq(db, accountId);
      const entry = expiredCallEntry(accountId, eventId, seq, now);
      appendStatusEntry(db, entry, now);
      return entry;
    });
  });
}
