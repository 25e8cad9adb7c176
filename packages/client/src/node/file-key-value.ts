import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { deserialize, serialize } from "node:v8";
import type { KeyValueStore } from "../storage/key-value.js";

/**
 * A store in one file, for a companion on Node (a terminal or desktop client). Values are kept as structured clones,
 * as IndexedDB keeps them (binary data included). Every write replaces the file whole (written beside it, then
 * renamed), one write at a time, so a crash leaves either the old contents or the new ones.
 */
export async function openFileStore(path: string): Promise<KeyValueStore> {
  const entries = await readEntries(path);
  let writing: Promise<void> = Promise.resolve();
  const persist = (): Promise<void> => {
    const snapshot = serialize(entries);
    writing = writing.then(async () => {
      await mkdir(dirname(path), { recursive: true });
      const temporary = `${path}.${process.pid}.tmp`;
      await writeFile(temporary, snapshot, { mode: 0o600 });
      await rename(temporary, path);
    });
    return writing;
  };
  return {
    async get<T>(key: string) {
      return entries.has(key) ? (structuredClone(entries.get(key)) as T) : undefined;
    },
    async set(key, value) {
      entries.set(key, structuredClone(value));
      await persist();
    },
    async delete(key) {
      if (entries.delete(key)) await persist();
    },
    async keys() {
      return [...entries.keys()];
    },
  };
}

async function readEntries(path: string): Promise<Map<string, unknown>> {
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return new Map();
    throw error;
  }
  const entries: unknown = deserialize(bytes);
  if (!(entries instanceof Map)) throw new Error(`${path} is not a Ringback client store.`);
  return entries as Map<string, unknown>;
}
