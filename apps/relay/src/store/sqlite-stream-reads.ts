import { CALL_PAGES, CALL_SQL, openCallsSnapshot, type PageReads, streamSnapshot } from "./call-rows.js";
import type { DeliveryEntry } from "./delivery-rows.js";
import type { SqliteDatabase } from "./sqlite-database.js";
import { deliveriesSince, openCallDeliveries } from "./sqlite-deliveries.js";
import { headSeq } from "./sqlite-rows.js";
import type { StreamPage, StreamSnapshot } from "./store.js";
import { lastSeqWithin, type PageRequest, streamPage as pageOf } from "./stream-pages.js";

export function streamSince(db: SqliteDatabase, accountId: string, afterSeq: number): StreamSnapshot {
  return db.snapshot(() =>
    streamSnapshot(
      db.all(CALL_SQL.streamSince, accountId, afterSeq),
      deliveriesSince(db, accountId, afterSeq),
      headSeq(db, accountId),
    ),
  );
}

export function pendingCalls(db: SqliteDatabase, accountId: string): StreamSnapshot {
  return db.snapshot(() =>
    openCallsSnapshot(
      accountId,
      db.all(CALL_SQL.openCalls, accountId),
      openCallDeliveries(db, accountId),
      headSeq(db, accountId),
    ),
  );
}

export function streamPage(db: SqliteDatabase, page: PageRequest): StreamPage {
  return db.snapshot(() =>
    pageWithin(db, page, CALL_PAGES.stream, deliveriesSince(db, page.accountId, page.afterSeq, page.limit)),
  );
}

export function pendingCallsPage(db: SqliteDatabase, page: PageRequest): StreamPage {
  return db.snapshot(() =>
    pageWithin(
      db,
      page,
      CALL_PAGES.openCalls(page.accountId),
      openCallDeliveries(db, page.accountId, page.afterSeq, page.limit),
    ),
  );
}

/** A page of `reads.rows` after `reads.sizes` said where the page's bytes end; call inside the read's snapshot. */
function pageWithin(
  db: SqliteDatabase,
  page: PageRequest,
  reads: PageReads,
  deliveries: DeliveryEntry[],
): StreamPage {
  const { accountId, afterSeq, limit, maxBytes } = page;
  const endSeq = lastSeqWithin(db.all(reads.sizes, accountId, afterSeq, limit), maxBytes);
  return pageOf({
    endSeq,
    rows: db.all(reads.rows, accountId, afterSeq, endSeq ?? Number.MAX_SAFE_INTEGER, limit),
    toEntry: reads.toEntry,
    deliveries,
    limit,
    headSeq: headSeq(db, accountId),
  });
}
