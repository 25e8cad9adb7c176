import { readFile } from "node:fs/promises";
import { JournalHeader, JournalRecord, OUTBOX_FORMAT_VERSION, OutboxSnapshot } from "./file-format.js";
import { OutboxError } from "./outbox-error.js";

// The outbox's files read back when it opens: a snapshot that is not one is refused (left as it is for a person to
// look at), a journal line that is torn or not a record is skipped and counted.

/** The snapshot, or an empty one of generation 0 when there is none yet. */
export async function readSnapshot(path: string): Promise<OutboxSnapshot> {
  const text = await readTextIfExists(path);
  if (text === null) return { version: OUTBOX_FORMAT_VERSION, generation: 0, entries: [], finished: [] };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw new OutboxError("corrupt_store", `${path} is not valid JSON; it was left as it is`, { cause });
  }
  const parsed = OutboxSnapshot.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join(".") || "(top level)";
    throw new OutboxError(
      "corrupt_store",
      `${path} is not an outbox snapshot at ${where}: ${issue?.message}`,
    );
  }
  return parsed.data;
}

/** The journal's records after its header, when the header names the snapshot's `generation`. */
export async function readJournal(path: string, generation: number): Promise<ParsedJournal> {
  return parseJournal((await readTextIfExists(path)) ?? "", generation);
}

async function readTextIfExists(path: string): Promise<string | null> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

export interface ParsedJournal {
  records: JournalRecord[];
  ignoredLines: number;
  /** A header of the snapshot's generation and nothing else: no compaction is needed at open. */
  isCurrentAndEmpty: boolean;
  bytes: number;
}

function parseJournal(text: string, generation: number): ParsedJournal {
  const lines = text.split("\n");
  // The part after the last newline is a line whose append never finished (its caller got no answer).
  const tornLines = lines.pop() === "" ? 0 : 1;
  const header = lines.length > 0 ? parseLine(lines[0] ?? "", JournalHeader) : undefined;
  if (header?.generation !== generation) {
    // Missing, torn, or older than the snapshot (which already holds its records): nothing to replay.
    return { records: [], ignoredLines: tornLines, isCurrentAndEmpty: false, bytes: 0 };
  }
  const records: JournalRecord[] = [];
  let ignoredLines = tornLines;
  for (const line of lines.slice(1)) {
    const record = parseLine(line, JournalRecord);
    if (record) records.push(record);
    else ignoredLines += 1;
  }
  const isCurrentAndEmpty = records.length === 0 && ignoredLines === 0;
  return { records, ignoredLines, isCurrentAndEmpty, bytes: Buffer.byteLength(text) };
}

function parseLine<T>(line: string, schema: { safeParse(value: unknown): { success: boolean; data?: T } }) {
  try {
    const parsed = schema.safeParse(JSON.parse(line));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
