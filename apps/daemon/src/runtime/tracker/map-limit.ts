/**
 * Tracker reads the daemon makes at the same time for one request (issue refreshes, dispatch refreshes):
 * enough that 100 reads take a handful of round trips, few enough not to flood the tracker.
 */
export const TRACKER_READS_IN_FLIGHT = 8;

/** Maps items with at most `limit` calls in flight; results keep the items' order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  map: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  async function worker(): Promise<void> {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await map(items[index] as T);
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Like `Promise.allSettled` over `mapLimit`: one failed call does not stop the others. */
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
