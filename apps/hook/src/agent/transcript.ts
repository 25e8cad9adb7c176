import type { FileHandle } from "node:fs/promises";

/** Bytes read from the end of the transcript per step. */
const CHUNK_BYTES = 256 * 1024;
const NEWLINE = 0x0a;

/** How to recognise the record being looked for. */
export interface LastRecordSearch<T> {
  /** A cheap test on the raw line, so large tool outputs are skipped without `JSON.parse`. */
  mightMatch(line: string): boolean;
  /** The wanted value, or `undefined` to keep looking at earlier records. */
  pick(record: unknown): T | undefined;
  /** Epoch ms after which the search gives up (the hook's budget). */
  deadline: number;
}

/**
 * Finds the last JSONL record of a transcript that `search.pick` accepts, reading the file backwards in
 * chunks: the final reply sits at the end, so a transcript of any size costs about one chunk.
 * Unparseable lines (such as a line still being written) are skipped. `undefined` when nothing matches,
 * the file cannot be read, or the deadline passes.
 */
export async function findLastRecord<T>(path: string, search: LastRecordSearch<T>): Promise<T | undefined> {
  let handle: FileHandle;
  try {
    // Taken when a transcript is read, not at start: node:fs/promises loads readline and more (see daemon-call/post-report.ts).
    handle = await process.getBuiltinModule("node:fs/promises").open(path, "r");
  } catch {
    return undefined;
  }
  try {
    let position = (await handle.stat()).size;
    // Bytes after the last newline seen so far, in file order: the tail of a line that began earlier.
    let carry: Buffer[] = [];
    while (position > 0) {
      if (Date.now() > search.deadline) return undefined;
      const length = Math.min(CHUNK_BYTES, position);
      position -= length;
      const chunk = Buffer.allocUnsafe(length);
      await handle.read(chunk, 0, length, position);
      let end = length;
      let newline = chunk.lastIndexOf(NEWLINE, end - 1);
      while (newline !== -1) {
        const found = consider(Buffer.concat([chunk.subarray(newline + 1, end), ...carry]), search);
        carry = [];
        if (found !== undefined) return found;
        end = newline;
        newline = end === 0 ? -1 : chunk.lastIndexOf(NEWLINE, end - 1);
      }
      if (end > 0) carry.unshift(chunk.subarray(0, end));
    }
    return consider(Buffer.concat(carry), search);
  } catch {
    return undefined;
  } finally {
    await handle.close();
  }
}

function consider<T>(line: Buffer, search: LastRecordSearch<T>): T | undefined {
  if (line.length === 0) return undefined;
  const text = line.toString("utf8");
  if (!search.mightMatch(text)) return undefined;
  try {
    return search.pick(JSON.parse(text));
  } catch {
    return undefined;
  }
}
