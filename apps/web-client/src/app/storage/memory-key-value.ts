import type { KeyValueStore } from "./key-value.js";

/**
 * A store in memory, for browsers without IndexedDB (some private modes) and for tests. With a capacity it
 * refuses writes past it the way a full browser storage does.
 */
export function createMemoryStore(options: { capacityBytes?: number } = {}): KeyValueStore {
  const entries = new Map<string, string>();
  const sizeWith = (key: string, text: string) => {
    let size = key.length + text.length;
    for (const [otherKey, otherText] of entries) {
      if (otherKey !== key) size += otherKey.length + otherText.length;
    }
    return size;
  };
  return {
    async get<T>(key: string) {
      const text = entries.get(key);
      return text === undefined ? undefined : (JSON.parse(text) as T);
    },
    async set(key, value) {
      const text = JSON.stringify(value);
      if (options.capacityBytes !== undefined && sizeWith(key, text) > options.capacityBytes) {
        throw Object.assign(new Error("The storage is full."), { name: "QuotaExceededError" });
      }
      entries.set(key, text);
    },
    async delete(key) {
      entries.delete(key);
    },
    async keys() {
      return [...entries.keys()];
    },
  };
}
