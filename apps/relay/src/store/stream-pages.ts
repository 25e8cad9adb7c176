import { integer } from "./columns.js";
import type { DeliveryEntry } from "./delivery-rows.js";
import type { Row } from "./row-records.js";
import type { StreamEntry, StreamPage } from "./store.js";

/**
 * One page of an account's stream from two reads in seq order, each limited to `limit` rows after the same seq: the
 * stream log's rows (`toEntry` may leave one out, a call whose ciphertext was erased) and the delivery records. The
 * page ends where a read that was cut off ends, and at `limit` rows in all, so no seq up to its `throughSeq` is in a
 * later page, and none is missed.
 */
export function streamPage(input: {
  readonly rows: readonly Row[];
  readonly toEntry: (row: Row) => StreamEntry | null;
  readonly deliveries: readonly DeliveryEntry[];
  readonly limit: number;
  readonly headSeq: number;
}): StreamPage {
  const { rows, deliveries, limit } = input;
  let throughSeq = input.headSeq;
  if (rows.length >= limit) throughSeq = Math.min(throughSeq, integer(rows[rows.length - 1]?.seq));
  if (deliveries.length >= limit)
    throughSeq = Math.min(throughSeq, deliveries[deliveries.length - 1]?.seq ?? 0);
  const seqs = [...rows.map((row) => integer(row.seq)), ...deliveries.map((entry) => entry.seq)]
    .filter((seq) => seq <= throughSeq)
    .sort((a, b) => a - b);
  if (seqs.length > limit) throughSeq = seqs[limit - 1] as number;
  const entries: StreamEntry[] = [];
  for (const row of rows) {
    if (integer(row.seq) > throughSeq) break;
    const entry = input.toEntry(row);
    if (entry) entries.push(entry);
  }
  for (const entry of deliveries) if (entry.seq <= throughSeq) entries.push(entry);
  return { entries: entries.sort((a, b) => a.seq - b.seq), throughSeq, headSeq: input.headSeq };
}
