import { rename } from "node:fs/promises";
import { join } from "node:path";
import { writeFileDurably } from "@ringback/outbox";
import { DISPATCH_RECORDS_MAX, DispatchRecord } from "@ringback/protocol";
import { z } from "zod";
import { readTextIfExists, tightenFileMode } from "../files/private-file.js";
import type { Logger } from "../logger.js";

/** `{data_dir}/dispatches.json`: the dispatch records, newest first. */
export const DISPATCHES_FILE = "dispatches.json";

const DispatchesFileContent = z.object({
  version: z.literal(1),
  dispatches: z.array(DispatchRecord),
});

/**
 * The dispatch records (spec: Dispatch record), at most DISPATCH_RECORDS_MAX, newest first. Records are
 * immutable values; every change is written to dispatches.json (temporary file, fsync, rename, mode 600)
 * before the promise resolves, one write at a time.
 */
export class DispatchStore {
  readonly #path: string;
  #records: readonly DispatchRecord[];
  #writes: Promise<unknown> = Promise.resolve();

  private constructor(path: string, records: readonly DispatchRecord[]) {
    this.#path = path;
    this.#records = records;
  }

  /** Reads the file; an unreadable one is moved aside (`.unreadable`) and the list starts empty. */
  static async load(dataDir: string, log: Logger): Promise<DispatchStore> {
    const path = join(dataDir, DISPATCHES_FILE);
    const text = await readTextIfExists(path);
    if (text === null) return new DispatchStore(path, []);
    await tightenFileMode(path, log);
    const parsed = DispatchesFileContent.safeParse(parseJson(text));
    if (parsed.success) return new DispatchStore(path, parsed.data.dispatches.slice(0, DISPATCH_RECORDS_MAX));
    await rename(path, `${path}.unreadable`);
    log(`${path} could not be read; moved to ${DISPATCHES_FILE}.unreadable and started an empty list`);
    return new DispatchStore(path, []);
  }

  list(): readonly DispatchRecord[] {
    return this.#records;
  }

  get(id: string): DispatchRecord | undefined {
    return this.#records.find((record) => record.id === id);
  }

  /** Adds a record as the newest; the oldest beyond DISPATCH_RECORDS_MAX are dropped. */
  add(record: DispatchRecord): Promise<void> {
    return this.#change((records) => [record, ...records.filter((known) => known.id !== record.id)]);
  }

  /**
   * Replaces records by id, each only if it is still the value the change was computed from (a cancel
   * or another refresh that got there first wins).
   */
  replace(changes: readonly { before: DispatchRecord; after: DispatchRecord }[]): Promise<void> {
    const effective = changes.filter((change) => change.before !== change.after);
    if (effective.length === 0) return this.#writes.then(() => undefined);
    return this.#change((records) =>
      records.map((record) => effective.find((change) => change.before === record)?.after ?? record),
    );
  }

  #change(change: (records: readonly DispatchRecord[]) => DispatchRecord[]): Promise<void> {
    const write = this.#writes.then(async () => {
      const records = change(this.#records).slice(0, DISPATCH_RECORDS_MAX);
      await writeFileDurably(this.#path, JSON.stringify({ version: 1, dispatches: records }));
      this.#records = records;
    });
    this.#writes = write.catch(() => undefined);
    return write;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
