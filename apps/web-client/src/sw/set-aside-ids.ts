import type { KeyValueStore } from "@ringback/client";
import { SET_ASIDE_IDS_KEY } from "@ringback/client";
import { ANSWERED_IDS_MAX } from "@ringback/protocol";

/** Ids of the calls set aside here with "Later", newest last. */
export async function loadSetAsideIds(store: KeyValueStore): Promise<string[]> {
  const ids = await store.get<unknown>(SET_ASIDE_IDS_KEY);
  return Array.isArray(ids) ? ids.filter((id): id is string => typeof id === "string") : [];
}

/**
 * Remembers a call set aside with "Later". Kept apart from its call record because the record needs the call's
 * sealed report, which the relay may not give in time (or which another key sealed); the id alone keeps repeat
 * pushes from ringing. As many are kept as answered ids, the oldest going first: far more than calls still ringing.
 */
export async function addSetAsideId(store: KeyValueStore, eventId: string): Promise<void> {
  const ids = await loadSetAsideIds(store);
  if (ids.includes(eventId)) return;
  await store.set(SET_ASIDE_IDS_KEY, [...ids, eventId].slice(-ANSWERED_IDS_MAX));
}
