import type { KeyValueStore } from "./key-value.js";

/**
 * A store in memory, for browsers without IndexedDB (some private modes) and for tests. Values are kept as
 * structured clones, as IndexedDB keeps them (binary data included). With a capacity it refuses writes past it the
 * way a full browser storage does; the size counted is the JSON text of each value.
 */
export function createMemoryStore(options: { capacityBytes?: number } = {}): KeyValueStore {
  const entries = new Map<string, { value: unknown; size: number }>();
  const sizeWith = (key: string, size: number) => {
    let total = key.length + size;
    for (const [otherKey, other] of entries) {
      if (otherKey !== key) total += otherKey.length + other.size;
    }
    return total;
  };
  return {
    async get<T>(key: string) {
      const entry = entries.get(key);
      return entry === undefined ? undefined : (structuredClone(entry.value) as T);
    },
    async set(key, value) {
      const size = JSON.stringify(value)?.length ?? 0;
      if (options.capacityBytes !== undefined && sizeWith(key, size) > options.capacityBytes) {
        throw Object.assign(new Error("The storage is full."), { name: "QuotaExceededError" });
      }
      entries.set(key, { value: structuredClone(value), size });
    },
    async delete(key) {
      entries.delete(key);
    },
    async keys() {
      return [...entries.keys()];
    },
  };
}
