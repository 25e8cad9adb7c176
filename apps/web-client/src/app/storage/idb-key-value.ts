import type { KeyValueStore } from "@ringback/client";
import { del, get, keys, set } from "idb-keyval";

/** The device's IndexedDB through idb-keyval (its default database, shared with the service worker). */
export function createIdbStore(): KeyValueStore {
  return {
    get: (key) => get(key),
    set: (key, value) => set(key, value),
    delete: (key) => del(key),
    keys: async () => (await keys()).filter((key): key is string => typeof key === "string"),
  };
}
