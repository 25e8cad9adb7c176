import { mapLimit } from "@ringback/tracker-client";

/**
 * Tracker reads the daemon makes at the same time for one request (issue refreshes, dispatch refreshes):
 * enough that 100 reads take a handful of round trips, few enough not to flood the tracker.
 */
export const TRACKER_READS_IN_FLIGHT = 8;

/** Like `Promise.allSettled` over `mapLimit` (@ringback/tracker-client): one failed call does not stop the others. */
export function settleLimit<T, R>(
  items: readonly T[],
  limit: number,
  map: (item: T) => Promise<R>,
): Promise<PromiseSettledResult<R>[]> {
  return mapLimit(items, limit, (item) =>
    map(item).then(
      (value): PromiseSettledResult<R> => ({ status: "fulfilled", value }),
      (reason: unknown): PromiseSettledResult<R> => ({ status: "rejected", reason }),
    ),
  );
}
