import type { Row } from "./columns.js";
import { integer } from "./columns.js";
import type { DeliveryEntry } from "./delivery-rows.js";
import type { StreamEntry, StreamPage } from "./store.js";

/** Which page of an account's stream a read wants: after `afterSeq`, at most `limit` entries and `maxBytes` bytes. */
export interface PageRequest {
  readonly accountId: string;
  readonly afterSeq: number;
  readonly limit: number;
  /** The sealed bytes the page's calls may hold (always the first); infinite: no bound. */
  readonly maxBytes: number;
}

export function pageRequest(
  accountId: string,
  afterSeq: number,
  limit: number,
  maxBytes = Number.POSITIVE_INFINITY,
): PageRequest {
  return { accountId, afterSeq, limit, maxBytes };
}

/**
 * Where a page must end so the sealed bytes of its entries stay within `maxBytes`: the last seq before the entry that
 * would pass it (a page always takes its first entry, however big); null when `sizes` (seq order, one page's rows)
 * fit whole.
 */
export function lastSeqWithin(sizes: readonly Row[], maxBytes: number): number | null {
  let total = 0;
  for (const [index, row] of sizes.entries()) {
    total += integer(row.bytes);
    if (total > maxBytes && index > 0) return integer(sizes[index - 1]?.seq);
  }
  return null;
}

/**
 * One page of an account's stream from two reads in seq order, each limited to `limit` rows after the same seq: the
 * stream log's rows (`toEntry` may leave one out, a call whose ciphertext was erased) and the delivery records. The
 * page ends where a read that was cut off ends, and at `limit` rows in all, so no seq up to its `throughSeq` is in a
 * later page, and none is missed. With `endSeq` the page ends there too.
 */
export function streamPage(input: {
  /** Read up to this seq only (the page's bytes end there: `lastSeqWithin`); null: no such end. */
  readonly endSeq: number | null;
  readonly rows: readonly Row[];
  readonly toEntry: (row: Row) => StreamEntry | null;
  readonly deliveries: readonly DeliveryEntry[];
  readonly limit: number;
  readonly headSeq: number;
}): StreamPage {
  const { rows, deliveries, limit } = input;
  let throughSeq = input.endSeq === null ? input.headSeq : Math.min(input.headSeq, input.endSeq);
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
