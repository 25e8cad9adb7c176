import { writeFileDurably } from "@ringback/outbox";
import { z } from "zod";
import type { Logger } from "../logger.js";
import { readTextIfExists, tightenFileMode } from "./private-file.js";

export interface BoundedRecordFileOptions<T> {
  readonly path: string;
  /** The top-level field of the file that holds the id -> record map (`{version: 1, [field]: {...}}`). */
  readonly field: string;
  readonly record: z.ZodType<T>;
  /** Records kept, the most recently set last; older ones are forgotten. */
  readonly kept: number;
  readonly log: Logger;
  /** Logged when the file cannot be read: what the user loses by starting afresh. */
  readonly unreadableMessage: string;
}

/**
 * A small id -> record map in a private JSON file, bounded to the newest `kept` records. Setting is immediate in
 * memory; the file follows, one write at a time with the latest state, so a burst of changes costs a few writes,
 * not one each. An unreadable file is logged and started afresh: it holds nothing that cannot be lost.
 */
export class BoundedRecordFile<T> {
  readonly #options: BoundedRecordFileOptions<T>;
  readonly #records: Map<string, T>;
  #isDirty = false;
  #writing: Promise<void> | null = null;

  private constructor(options: BoundedRecordFileOptions<T>, records: Map<string, T>) {
    this.#options = options;
    this.#records = records;
  }

  static async load<T>(options: BoundedRecordFileOptions<T>): Promise<BoundedRecordFile<T>> {
    const { path, field, log } = options;
    const text = await readTextIfExists(path);
    const records = new Map<string, T>();
    if (text !== null) {
      await tightenFileMode(path, log);
      const parsed = parseRecords(text, field, options.record);
      if (parsed) for (const [id, record] of parsed) records.set(id, record);
      else log(`${path} could not be read; ${options.unreadableMessage}`);
    }
    return new BoundedRecordFile(options, records);
  }

  /**
   * The records of such a file as it is now, for a reader that changes nothing (`ringback doctor`): no mode
   * change, no log. Null when the file is missing or cannot be read.
   */
  static async read<T>(
    options: Pick<BoundedRecordFileOptions<T>, "path" | "field" | "record">,
  ): Promise<Map<string, T> | null> {
    const text = await readTextIfExists(options.path);
    return text === null ? null : parseRecords(text, options.field, options.record);
  }

  get(id: string): T | undefined {
    return this.#records.get(id);
  }

  has(id: string): boolean {
    return this.#records.has(id);
  }

  /** Stores the record as the newest, forgetting the oldest past the bound, and schedules the write. */
  set(id: string, record: T): void {
    this.#records.delete(id);
    this.#records.set(id, record);
    for (const oldest of this.#records.keys()) {
      if (this.#records.size <= this.#options.kept) break;
      this.#records.delete(oldest);
    }
    this.#isDirty = true;
    this.#writing ??= this.#writeWhileDirty();
  }

  /** Forgets the record, if any, and schedules the write. */
  delete(id: string): void {
    if (!this.#records.delete(id)) return;
    this.#isDirty = true;
    this.#writing ??= this.#writeWhileDirty();
  }

  /** The ids held, the most recently set last. */
  ids(): string[] {
    return [...this.#records.keys()];
  }

  /** Waits until the file holds everything set so far. */
  async flush(): Promise<void> {
    while (this.#writing) await this.#writing;
  }

  async #writeWhileDirty(): Promise<void> {
    const { path, field, log } = this.#options;
    try {
      while (this.#isDirty) {
        this.#isDirty = false;
        await writeFileDurably(
          path,
          JSON.stringify({ version: 1, [field]: Object.fromEntries(this.#records) }),
        );
      }
    } catch (error) {
      log(`could not write ${path}: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      this.#writing = null;
    }
  }
}

/** `{version: 1, [field]: {id: record}}`, oldest first; null when the text is not that. */
function parseRecords<T>(text: string, field: string, record: z.ZodType<T>): Map<string, T> | null {
  const content = z.object({ version: z.literal(1), [field]: z.record(z.string(), record) });
  const parsed = content.safeParse(safeJsonParse(text));
  if (!parsed.success) return null;
  return new Map(Object.entries(parsed.data[field] as Record<string, T>));
}

function safeJsonParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
