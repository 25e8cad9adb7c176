import { CALL_PAGES, CALL_SQL, openCallsSnapshot, type PageReads, streamSnapshot } from "./call-rows.js";
import type { DeliveryEntry } from "./delivery-rows.js";
import { type PostgresDatabase, type Queries, query } from "./postgres-database.js";
import { deliveriesSince, openCallDeliveries } from "./postgres-deliveries.js";
import { headSeq } from "./postgres-rows.js";
import type { StreamPage, StreamSnapshot } from "./store.js";
import { lastSeqWithin, type PageRequest, streamPage as pageOf } from "./stream-pages.js";

export function streamSince(
  pg: PostgresDatabase,
  accountId: string,
  afterSeq: number,
): Promise<StreamSnapshot> {
  return pg.snapshot(async (tx) =>
    streamSnapshot(
      await query(tx, CALL_SQL.streamSince, [accountId, afterSeq]),
      await deliveriesSince(tx, accountId, afterSeq),
      await headSeq(tx, accountId),
    ),
  );
}

export function pendingCalls(pg: PostgresDatabase, accountId: string): Promise<StreamSnapshot> {
  return pg.snapshot(async (tx) =>
    openCallsSnapshot(
      accountId,
      await query(tx, CALL_SQL.openCalls, [accountId]),
      await openCallDeliveries(tx, accountId),
      await headSeq(tx, accountId),
    ),
  );
}

export function streamPage(pg: PostgresDatabase, page: PageRequest): Promise<StreamPage> {
  return pg.snapshot((tx) =>
    pageWithin(tx, page, CALL_PAGES.stream, () =>
      deliveriesSince(tx, page.accountId, page.afterSeq, page.limit),
    ),
  );
}

export function pendingCallsPage(pg: PostgresDatabase, page: PageRequest): Promise<StreamPage> {
  return pg.snapshot((tx) =>
    pageWithin(tx, page, CALL_PAGES.openCalls(page.accountId), () =>
      openCallDeliveries(tx, page.accountId, page.afterSeq, page.limit),
    ),
  );
}

/**
 * A page of `reads.rows` after `reads.sizes` said where the page's bytes end (read only when they are bounded); call
 * inside the read's snapshot.
 */
async function pageWithin(
  tx: Queries,
  page: PageRequest,
  reads: PageReads,
  deliveries: () => Promise<DeliveryEntry[]>,
): Promise<StreamPage> {
  const { accountId, afterSeq, limit, maxBytes } = page;
  const endSeq = Number.isFinite(maxBytes)
    ? lastSeqWithin(await query(tx, reads.sizes, [accountId, afterSeq, limit]), maxBytes)
    : null;
  return pageOf({
    endSeq,
    rows: await query(tx, reads.rows, [accountId, afterSeq, endSeq ?? Number.MAX_SAFE_INTEGER, limit]),
    toEntry: reads.toEntry,
    deliveries: await deliveries(),
    limit,
    headSeq: await headSeq(tx, accountId),
  });
}
