// The durable report queue, grouped as the README's API: the outbox, its store, the building blocks, its error, the
// files it keeps.
// biome-ignore-all assist/source/organizeImports: grouped by area for reading, not sorted by path

// The outbox: reports kept on disk, their briefs generated and sent to the relay with backoff.
export { type Clock, type GenerateBrief, Outbox, type OutboxOptions } from "./outbox.js";
export { createRelaySender, RELAY_SEND_TIMEOUT_MS, type RelaySenderOptions } from "./relay-sender.js";
export { FinishedEntry, OutboxEntry, OutboxEntryChanges, OutboxState } from "./entry.js";

// The store alone: the snapshot plus journal with group commit, and how soon finished reports are erased.
export {
  type AcceptResult,
  ERASE_FINISHED_REPORTS_WITHIN_MS,
  FINISHED_EVENT_IDS_KEPT,
  JOURNAL_COMPACT_MIN_BYTES,
  type OutboxRecovery,
  OutboxStore,
} from "./store.js";

// Building blocks: the brief scheduler, the sender and its backoff, a durable file write.
export { BriefScheduler, type GenerationTask } from "./scheduler.js";
export {
  SEND_CONCURRENCY,
  Sender,
  type SenderOptions,
  type SendFunction,
  type SendOutcome,
} from "./sender.js";
export { parseRetryAfterMs, retryDelayMs } from "./backoff.js";
export { OUTBOX_DIRECTORY_MODE, OUTBOX_FILE_MODE, writeFileDurably } from "./durable-file.js";

// Errors: one class with a code to branch on, the outside failure as its cause.
export { isOutboxError, OutboxError, type OutboxErrorCode } from "./outbox-error.js";

// The files in the outbox's directory and their format.
export {
  JournalHeader,
  JournalRecord,
  OUTBOX_FORMAT_VERSION,
  OUTBOX_JOURNAL_FILE,
  OUTBOX_LOCK_FILE,
  OUTBOX_SNAPSHOT_FILE,
  OutboxSnapshot,
} from "./file-format.js";
