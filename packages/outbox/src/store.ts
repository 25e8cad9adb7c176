import type { FileHandle } from "node:fs/promises";
import { join } from "node:path";
import { ensureDirectory, openForAppend, writeFileDurably } from "./durable-file.js";
import type { FinishedEntry, OutboxEntry, OutboxEntryChanges } from "./entry.js";
import {
  type JournalRecord,
  OUTBOX_FORMAT_VERSION,
  OUTBOX_JOURNAL_FILE,
  OUTBOX_LOCK_FILE,
  OUTBOX_SNAPSHOT_FILE,
  type OutboxSnapshot,
} from "./file-format.js";
import { acquireLock, releaseLock } from "./lock-file.js";
import { OutboxError } from "./outbox-error.js";
import { readJournal, readSnapshot } from "./read-files.js";

/**
 * The journal is folded into a new snapshot once it outgrows both this and the last snapshot: rewriting the
 * snapshot costs its size, so letting the journal grow as large keeps the cost per record constant.
 */
export const JOURNAL_COMPACT_MIN_BYTES = 1024 * 1024;
/**
 * A report's text, session and directory stay on disk (its journal records, or the snapshot) after it is sent, until
 * the next compaction. Compaction erases them once the finished reports' records on disk outweigh the unfinished
 * ones (rewriting the snapshot then costs no more than what it erases), and at the latest at the first write this
 * long after the first of them finished.
 */
export const ERASE_FINISHED_REPORTS_WITHIN_MS = 10 * 60 * 1000;
/** Event ids of sent and dropped reports remembered to refuse a second append; the relay dedupes older ones. */
export const FINISHED_EVENT_IDS_KEPT = 2000;

export type AcceptResult = "accepted" | "duplicate";

/** What `open` found on disk. */
export interface OutboxRecovery {
  /** Unfinished entries after recovery. */
  entries: number;
  /** Journal records applied on top of the snapshot. */
  replayedRecords: number;
  /** Torn (a crash mid-append) or unreadable journal lines that were skipped. */
  ignoredLines: number;
}

interface PendingWrite {
  /** One journal line with its newline; empty for a caller that only waits for what is queued before it. */
  line: string;
  /** The change this line records; null for a wait on the writes before it. */
  record: JournalRecord | null;
  resolve(): void;
  reject(error: Error): void;
}

interface Contents {
  entries: Map<string, OutboxEntry>;
  finished: Map<string, FinishedEntry>;
}

/**
 * The outbox on disk: `outbox.json` (snapshot) + `outbox.journal` (append log), both mode 600.
 * Every change is applied in memory at once and resolves only when it is durable; changes that arrive while
 * one fsync runs share the next one (group commit).
 */
export class OutboxStore {
  readonly recovery: OutboxRecovery;
  readonly #snapshotPath: string;
  readonly #lockPath: string;
  readonly #journal: FileHandle;
  readonly #contents: Contents;
  #generation: number;
  #journalBytes = 0;
  #snapshotBytes = 0;
  #pending: PendingWrite[] = [];
  #isFlushing = false;
  /** After a failed write the journal may end in a partial line: the next write rewrites snapshot and journal. */
  #mustCompact = false;
  #failure: OutboxError | null = null;
  #journalSyncs = 0;
  readonly #now: () => number;
  /** Bytes each unfinished entry's records take on disk (its accept line and its updates, or its snapshot entry). */
  readonly #entryBytes = new Map<string, number>();
  #unfinishedBytes = 0;
  /** Bytes on disk of entries finished since the last compaction: text to erase. */
  #finishedBytes = 0;
  /** When the first of those finished (`now()`); null when none waits. */
  #finishedSince: number | null = null;

  private constructor(
    snapshotPath: string,
    lockPath: string,
    journal: FileHandle,
    contents: Contents,
    generation: number,
    recovery: OutboxRecovery,
    now: () => number,
  ) {
    this.#snapshotPath = snapshotPath;
    this.#lockPath = lockPath;
    this.#journal = journal;
    this.#contents = contents;
    this.#generation = generation;
    this.recovery = recovery;
    this.#now = now;
    for (const [eventId, entry] of contents.entries)
      this.#countBytes(eventId, Buffer.byteLength(JSON.stringify(entry)));
  }

  /**
   * Claims the outbox for this process (`outbox.lock`), reads the snapshot, replays the journal, and starts a
   * fresh journal generation when there was any (which also erases whatever finished reports it held). `now` is
   * the clock of `ERASE_FINISHED_REPORTS_WITHIN_MS`.
   */
  static async open(directory: string, options: { now?: () => number } = {}): Promise<OutboxStore> {
    await ensureDirectory(directory);
    const lockPath = join(directory, OUTBOX_LOCK_FILE);
    await acquireLock(lockPath);
    try {
      return await OutboxStore.#openLocked(directory, lockPath, options.now ?? Date.now);
    } catch (error) {
      await releaseLock(lockPath);
      throw error;
    }
  }

  static async #openLocked(directory: string, lockPath: string, now: () => number): Promise<OutboxStore> {
    const snapshotPath = join(directory, OUTBOX_SNAPSHOT_FILE);
    const journalPath = join(directory, OUTBOX_JOURNAL_FILE);
    const snapshot = await readSnapshot(snapshotPath);
    const contents: Contents = {
      entries: new Map(snapshot.entries.map((entry) => [entry.report.eventId, entry])),
      finished: new Map(snapshot.finished.map((finished) => [finished.eventId, finished])),
    };
    const journal = await readJournal(journalPath, snapshot.generation);
    for (const record of journal.records) applyRecord(contents, record);
    for (const entry of contents.entries.values()) {
      if (entry.state === "generating") entry.state = "accepted";
    }
    const recovery: OutboxRecovery = {
      entries: contents.entries.size,
      replayedRecords: journal.records.length,
      ignoredLines: journal.ignoredLines,
    };
    const handle = await openForAppend(journalPath);
    const store = new OutboxStore(
      snapshotPath,
      lockPath,
      handle,
      contents,
      snapshot.generation,
      recovery,
      now,
    );
    try {
      if (journal.isCurrentAndEmpty) store.#journalBytes = journal.bytes;
      else await store.#compact();
    } catch (error) {
      await handle.close();
      throw error;
    }
    return store;
  }

  /** Unfinished entries in arrival order. */
  entries(): readonly Readonly<OutboxEntry>[] {
    return [...this.#contents.entries.values()];
  }

  /** Sent and dropped reports still remembered, oldest first. */
  finishedEntries(): readonly Readonly<FinishedEntry>[] {
    return [...this.#contents.finished.values()];
  }

  get(eventId: string): Readonly<OutboxEntry> | undefined {
    return this.#contents.entries.get(eventId);
  }

  getFinished(eventId: string): Readonly<FinishedEntry> | undefined {
    return this.#contents.finished.get(eventId);
  }

  /** fsyncs of the journal so far (group commit makes this smaller than the number of changes). */
  get journalSyncs(): number {
    return this.#journalSyncs;
  }

  /** Adds an entry; a second entry with the same event id changes nothing and reports `duplicate`. */
  async accept(entry: OutboxEntry): Promise<AcceptResult> {
    const eventId = entry.report.eventId;
    if (this.#contents.entries.has(eventId) || this.#contents.finished.has(eventId)) {
      // The first copy may still be on its way to disk: "duplicate" must mean "durable" too.
      await this.#write(null);
      return "duplicate";
    }
    await this.#change({ op: "accept", entry: structuredClone(entry) });
    return "accepted";
  }

  async update(eventId: string, changes: OutboxEntryChanges): Promise<void> {
    this.#require(eventId);
    await this.#change({ op: "update", eventId, changes });
  }

  /** Ends an entry: it leaves the outbox and only its event id, state and reason are remembered. */
  async finish(eventId: string, state: FinishedEntry["state"], finishedAt: string, reason: string | null) {
    this.#require(eventId);
    await this.#change({ op: "finish", finished: { eventId, state, finishedAt, reason } });
  }

  /** Marks a generation started or abandoned, in memory only (see `OutboxState`). */
  setGenerating(eventId: string, isGenerating: boolean): void {
    const entry = this.#require(eventId);
    entry.state = isGenerating ? "generating" : "accepted";
  }

  /** Waits for queued changes to be durable, then closes the journal. Later changes are refused. */
  async close(): Promise<void> {
    if (this.#failure?.code === "closed") return;
    await this.#write(null).catch(() => undefined);
    this.#failure = new OutboxError("closed", "the outbox is closed");
    await this.#journal.close();
    await releaseLock(this.#lockPath);
  }

  #require(eventId: string): OutboxEntry {
    const entry = this.#contents.entries.get(eventId);
    if (!entry) throw new OutboxError("unknown_entry", `no unfinished outbox entry has event id ${eventId}`);
    return entry;
  }

  #change(record: JournalRecord): Promise<void> {
    if (this.#failure) return Promise.reject(this.#failure);
    applyRecord(this.#contents, record);
    const line = `${JSON.stringify(record)}\n`;
    this.#account(record, Buffer.byteLength(line));
    return this.#write(line, record);
  }

  /** Keeps the byte counts of unfinished and finished entries on disk in step with a change. */
  #account(record: JournalRecord, lineBytes: number): void {
    switch (record.op) {
      case "accept":
        this.#countBytes(record.entry.report.eventId, lineBytes);
        return;
      case "update":
        this.#countBytes(record.eventId, lineBytes);
        return;
      case "finish": {
        const bytes = this.#forgetBytes(record.finished.eventId);
        this.#finishedBytes += bytes;
        this.#finishedSince ??= this.#now();
        return;
      }
    }
  }

  #countBytes(eventId: string, bytes: number): void {
    this.#entryBytes.set(eventId, (this.#entryBytes.get(eventId) ?? 0) + bytes);
    this.#unfinishedBytes += bytes;
  }

  #forgetBytes(eventId: string): number {
    const bytes = this.#entryBytes.get(eventId) ?? 0;
    this.#entryBytes.delete(eventId);
    this.#unfinishedBytes -= bytes;
    return bytes;
  }

  /** Finished reports' text is on disk and erasing it is due (see ERASE_FINISHED_REPORTS_WITHIN_MS). */
  #isErasureDue(): boolean {
    if (this.#finishedSince === null) return false;
    return (
      this.#finishedBytes >= this.#unfinishedBytes ||
      this.#now() - this.#finishedSince >= ERASE_FINISHED_REPORTS_WITHIN_MS
    );
  }

  #write(line: string | null, record: JournalRecord | null = null): Promise<void> {
    if (this.#failure) return Promise.reject(this.#failure);
    return new Promise((resolve, reject) => {
      this.#pending.push({ line: line ?? "", record, resolve, reject });
      if (!this.#isFlushing) {
        this.#isFlushing = true;
        void this.#flush();
      }
    });
  }

  /** Never rejects: a failure rejects the waiting writes instead. */
  async #flush(): Promise<void> {
    // Let every change made in the current tick join the first batch.
    await Promise.resolve();
    while (this.#pending.length > 0) {
      const batch = this.#pending.splice(0);
      try {
        if (
          this.#mustCompact ||
          this.#isErasureDue() ||
          this.#journalBytes >= Math.max(JOURNAL_COMPACT_MIN_BYTES, this.#snapshotBytes)
        ) {
          // The snapshot holds everything in memory, this batch included: it is durable with it.
          await this.#compact();
          this.#mustCompact = false;
        } else {
          await this.#appendToJournal(batch.map((write) => write.line).join(""));
        }
      } catch (cause) {
        if (!isDiskFull(cause)) {
          this.#failure = new OutboxError("write_failed", "the outbox could not be written", { cause });
          for (const write of [...batch, ...this.#pending.splice(0)]) write.reject(this.#failure);
          break;
        }
        // A full disk passes: what this batch accepted is taken back (its caller hears it was not kept), and the
        // next write starts from a fresh snapshot, as the journal may now end in half a line.
        const failure = new OutboxError("disk_full", "the disk is full: the outbox could not be written", {
          cause,
        });
        for (const write of batch) {
          if (write.record?.op === "accept") {
            this.#contents.entries.delete(write.record.entry.report.eventId);
            this.#forgetBytes(write.record.entry.report.eventId);
          }
          write.reject(failure);
        }
        this.#mustCompact = true;
        continue;
      }
      for (const write of batch) write.resolve();
    }
    // Cleared in the same tick as the last check of #pending, so no write can be left waiting.
    this.#isFlushing = false;
  }

  async #appendToJournal(text: string): Promise<void> {
    if (text === "") return;
    await this.#journal.appendFile(text);
    await this.#journal.datasync();
    this.#journalSyncs += 1;
    this.#journalBytes += Buffer.byteLength(text);
  }

  /** Rewrites the snapshot from memory and starts the journal over under the next generation number. */
  async #compact(): Promise<void> {
    const generation = this.#generation + 1;
    forgetOldestFinished(this.#contents.finished);
    // Serialised before the first await: later changes belong to the new journal, not this snapshot.
    const snapshot = JSON.stringify(toSnapshot(this.#contents, generation));
    const erasing = { bytes: this.#finishedBytes, since: this.#finishedSince };
    await writeFileDurably(this.#snapshotPath, snapshot);
    this.#generation = generation;
    this.#snapshotBytes = Buffer.byteLength(snapshot);
    // A crash from here on leaves a journal of the old generation, which recovery ignores.
    await this.#journal.truncate(0);
    this.#journalBytes = 0;
    // The finished reports the old snapshot and journal held are gone; any finished meanwhile wait for the next.
    this.#finishedBytes -= erasing.bytes;
    if (this.#finishedSince === erasing.since)
      this.#finishedSince = this.#finishedBytes > 0 ? this.#now() : null;
    await this.#appendToJournal(`${JSON.stringify({ version: OUTBOX_FORMAT_VERSION, generation })}\n`);
  }
}

function applyRecord(contents: Contents, record: JournalRecord): void {
  switch (record.op) {
    case "accept": {
      const eventId = record.entry.report.eventId;
      if (!contents.entries.has(eventId) && !contents.finished.has(eventId)) {
        contents.entries.set(eventId, record.entry);
      }
      return;
    }
    case "update": {
      const entry = contents.entries.get(record.eventId);
      if (entry) Object.assign(entry, record.changes);
      return;
    }
    case "finish":
      contents.entries.delete(record.finished.eventId);
      contents.finished.set(record.finished.eventId, record.finished);
      return;
  }
}

function forgetOldestFinished(finished: Map<string, FinishedEntry>): void {
  const excess = finished.size - FINISHED_EVENT_IDS_KEPT;
  if (excess <= 0) return;
  const oldest = [...finished.keys()].slice(0, excess);
  for (const eventId of oldest) finished.delete(eventId);
}

function toSnapshot(contents: Contents, generation: number): OutboxSnapshot {
  const entries = [...contents.entries.values()].map((entry) =>
    entry.state === "generating" ? { ...entry, state: "accepted" as const } : entry,
  );
  return { version: OUTBOX_FORMAT_VERSION, generation, entries, finished: [...contents.finished.values()] };
}

/** ENOSPC or EDQUOT: a full disk or quota, which frees up; anything else is a broken disk. */
function isDiskFull(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOSPC" || code === "EDQUOT";
}
