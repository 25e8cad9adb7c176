import { Brief, Report } from "@ringback/protocol";
import { z } from "zod";

/**
 * accepted -> generating -> generated -> sent, or dropped. `generating` lives in memory only: a generation in
 * progress at exit or at a crash is regenerated at the next start, so the file never needs to say so.
 */
export const OutboxState = z.enum(["accepted", "generating", "generated", "sent", "dropped"]);
export type OutboxState = z.infer<typeof OutboxState>;

/** One report on its way to the relay, as kept in `outbox.json` and `outbox.journal`. */
export const OutboxEntry = z.object({
  report: Report,
  state: OutboxState,
  /** Written once when generated; never regenerated after a send failure or a restart. */
  brief: Brief.nullable(),
  acceptedAt: z.string(),
  /** Failed send attempts so far; the backoff continues from here after a restart. */
  attempts: z.number().int().nonnegative(),
  /** Earliest time of the next send attempt (ISO 8601): a retry's backoff, or the hold given at accept time; null when due at once. */
  nextAttemptAt: z.string().nullable(),
});
export type OutboxEntry = z.infer<typeof OutboxEntry>;

/** What is remembered of a finished report: enough to refuse a second append of its event id. */
export const FinishedEntry = z.object({
  eventId: z.string(),
  state: z.enum(["sent", "dropped"]),
  finishedAt: z.string(),
  /** Why it was dropped (relay status and code), `duplicate_task` when another computer sent it; else null. */
  reason: z.string().nullable(),
});
export type FinishedEntry = z.infer<typeof FinishedEntry>;

/** The fields of an entry that change after it is accepted. */
export const OutboxEntryChanges = OutboxEntry.pick({
  state: true,
  brief: true,
  attempts: true,
  nextAttemptAt: true,
}).partial();
export type OutboxEntryChanges = z.infer<typeof OutboxEntryChanges>;
