import { z } from "zod";
import { FinishedEntry, OutboxEntry, OutboxEntryChanges } from "./entry.js";

export const OUTBOX_SNAPSHOT_FILE = "outbox.json";
export const OUTBOX_JOURNAL_FILE = "outbox.journal";
/** Holds the pid of the process that has the outbox open. */
export const OUTBOX_LOCK_FILE = "outbox.lock";
export const OUTBOX_FORMAT_VERSION = 1;

/**
 * `outbox.json`. `generation` pairs it with the journal written after it: a journal of another generation is
 * one whose records this snapshot already holds (a crash between the rename and the journal reset).
 */
export const OutboxSnapshot = z.object({
  version: z.literal(OUTBOX_FORMAT_VERSION),
  generation: z.number().int().nonnegative(),
  entries: z.array(OutboxEntry),
  finished: z.array(FinishedEntry),
});
export type OutboxSnapshot = z.infer<typeof OutboxSnapshot>;

/** First line of `outbox.journal`. */
export const JournalHeader = z.object({
  version: z.literal(OUTBOX_FORMAT_VERSION),
  generation: z.number().int().nonnegative(),
});
export type JournalHeader = z.infer<typeof JournalHeader>;

/** Every further line of `outbox.journal`: a new entry, a change to one, or its end. */
export const JournalRecord = z.discriminatedUnion("op", [
  z.object({ op: z.literal("accept"), entry: OutboxEntry }),
  z.object({ op: z.literal("update"), eventId: z.string(), changes: OutboxEntryChanges }),
  z.object({ op: z.literal("finish"), finished: FinishedEntry }),
]);
export type JournalRecord = z.infer<typeof JournalRecord>;
