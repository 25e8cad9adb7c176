import { isFinalCallStatus } from "@ringback/protocol";
import { CALL_QUERIES, callStatusEntry, callStatusRefusal, expiredCallEntry } from "./call-rows.js";
import { type PostgresDatabase, read, text } from "./postgres-database.js";
import { appendStatusEntry, nextSeq, notifyEntries } from "./postgres-rows.js";
import { type CallStatusInput, type CallStatusOutcome, EXPIRY_BATCH_MAX, type StreamEntry } from "./store.js";

export function setCallStatus(pg: PostgresDatabase, input: CallStatusInput): Promise<CallStatusOutcome> {
  return pg.transaction(async (tx) => {
    const isFinal = isFinalCallStatus(input.status);
    // First answer wins as one conditional update: a second writer waits for the row lock, then finds the
    // condition false against the committed row and changes nothing.
    const changed = await tx`UPDATE events SET status = ${input.status}, status_device_id = ${input.deviceId},
        status_at = ${input.now},
        sealed = CASE WHEN ${isFinal} THEN NULL ELSE sealed END,
        expires_at = ${isFinal ? null : input.answeredExpiresAt}
      WHERE account_id = ${input.accountId} AND event_id = ${input.eventId}
        AND (status = 'pending'
          OR (status = 'answered' AND status_device_id = ${input.deviceId} AND ${input.status} <> 'answered'))
      RETURNING event_id`;
    if (changed.length === 0) {
      // Why it changed nothing, from the call as it is now.
      return callStatusRefusal(await read(tx, CALL_QUERIES.callStatus(input)), input);
    }
    const seq = await nextSeq(tx, input.accountId);
    const entry = callStatusEntry(input, seq);
    await appendStatusEntry(tx, entry, input.now);
    await notifyEntries(tx, pg.channel, [entry]);
    return { kind: "changed", status: input.status, entry };
  });
}

/**
 * Expires open calls due at `now`, erasing their ciphertext. SKIP LOCKED lets two instances sweep at once
 * without taking the same calls, and account order keeps their account locks from deadlocking.
 */
export function expireCalls(pg: PostgresDatabase, now: number): Promise<StreamEntry[]> {
  return pg.transaction(async (tx) => {
    const due = await tx`SELECT account_id, event_id FROM events
      WHERE expires_at IS NOT NULL AND expires_at <= ${now}
      ORDER BY account_id, event_id LIMIT ${EXPIRY_BATCH_MAX} FOR UPDATE SKIP LOCKED`;
    const entries: StreamEntry[] = [];
    for (const row of due) {
      const accountId = text(row.account_id);
      const eventId = text(row.event_id);
      await read(tx, CALL_QUERIES.expire(accountId, eventId, now));
      const seq = await nextSeq(tx, accountId);
      const entry = expiredCallEntry(accountId, eventId, seq, now);
      await appendStatusEntry(tx, entry, now);
      entries.push(entry);
    }
    await notifyEntries(tx, pg.channel, entries);
    return entries;
  });
}
