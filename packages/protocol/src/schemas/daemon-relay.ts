import { z } from "zod";
import { REPLY_TEXT_MAX_CHARS } from "../limits.js";
import { Brief } from "./brief.js";
import { CallRing } from "./call-rules.js";
import { E2eKeySource } from "./e2e.js";
import { PermissionAsk } from "./permission.js";
import { EventId, Report, ReportSource } from "./report.js";
import { RequestStamp } from "./request-stamp.js";

/** What made a tracker agent's question a call: a comment mentioning the user, or the issue moved to blocked. */
export const TrackerQuestionTrigger = z.enum(["mention", "blocked"]);
export type TrackerQuestionTrigger = z.infer<typeof TrackerQuestionTrigger>;

/**
 * An agent working a tracker issue asks its human something. A reply to the call is posted as a comment on the
 * issue (under the agent's comment when there is one), which the tracker hands back to the agent.
 */
export const TrackerQuestion = z.object({
  trigger: TrackerQuestionTrigger,
  /** The agent's words, whole: its comment, or for a move to blocked its last comment ("" when it wrote none). */
  question: z.string(),
  /** The agent's comment that asked; null when the move to blocked came without one. */
  commentId: z.string().nullable(),
});
export type TrackerQuestion = z.infer<typeof TrackerQuestion>;

/**
 * What is sealed for the client: the report and its brief (AAD `ringback/v1/report/<eventId>`). A "needs you" call
 * (an agent asking permission) also carries the ask; its report text and brief are the ask in words, made by the
 * computer without a model. A tracker agent's question (source `tracker`) carries `trackerQuestion` instead: it
 * rings as "needs you" too, its brief is the question in words (no model), and it is answered with a reply.
 */
export const SealedReportPayload = z.object({
  report: Report,
  brief: Brief,
  needsYou: PermissionAsk.optional(),
  trackerQuestion: TrackerQuestion.optional(),
});
export type SealedReportPayload = z.infer<typeof SealedReportPayload>;

/** `POST /v1/daemon/events` body: routing plaintext plus the sealed payload. */
export const DaemonEventPost = z.object({
  eventId: EventId,
  source: ReportSource,
  occurredAt: z.iso.datetime({ offset: true }),
  /** `e2e1.<keyId>.<iv>.<ciphertext>` of a SealedReportPayload. */
  sealed: z.string().startsWith("e2e1."),
  /** `quiet`: keep and list the call, but do not push or ring it (a round-up-only or silent project). */
  ring: CallRing.optional(),
});
export type DaemonEventPost = z.infer<typeof DaemonEventPost>;

/** `POST /v1/daemon/tracker-reports` body: the tracker task id in plaintext so a task rings once. */
export const DaemonTrackerReportPost = DaemonEventPost.extend({
  source: z.literal("tracker"),
  taskId: z.string().min(1).max(200),
});
export type DaemonTrackerReportPost = z.infer<typeof DaemonTrackerReportPost>;

/** Methods a relayed settings request may use. */
export const RelayedMethod = z.enum(["GET", "PUT", "POST", "DELETE"]);

/**
 * The request a device relays to a computer's local interface: the same request the desktop app would send it.
 * Sealed as a `StampedSettingsRequest`.
 */
export const SettingsRequestPlaintext = z.object({
  method: RelayedMethod,
  /** A local-interface path such as `/llm/settings`; `/e2e/*` and `/local/*` answer 403 `not_relayed`. */
  path: z.string().startsWith("/").max(200),
  body: z.unknown().optional(),
});
export type SettingsRequestPlaintext = z.infer<typeof SettingsRequestPlaintext>;

/**
 * The plaintext of a relayed settings request: the request and its stamp, sealed with the AAD
 * `ringback/v2/settings-request/<computerId>/<requestId>` (the computer's relay device id).
 */
export const StampedSettingsRequest = SettingsRequestPlaintext.extend(RequestStamp.shape);
export type StampedSettingsRequest = z.infer<typeof StampedSettingsRequest>;

/** The plaintext of its result (AAD `ringback/v1/settings-result/<requestId>`): the local answer as is. */
export const SettingsResultPlaintext = z.object({
  status: z.number().int().min(100).max(599),
  body: z.unknown(),
});
export type SettingsResultPlaintext = z.infer<typeof SettingsResultPlaintext>;

/**
 * The plaintext of a reply after hang-up, sealed with the AAD `ringback/v2/reply/<computerId>/<eventId>` (the
 * computer that reported the event) and stamped: the relay queues replies for up to `REPLY_EXPIRY_MS`, and the
 * computer refuses one older than that (plus the clock window) or one it has seen.
 */
export const ReplyPlaintext = z.object({
  replyId: z.string().min(1),
  text: z.string().min(1).max(REPLY_TEXT_MAX_CHARS),
  ...RequestStamp.shape,
});
export type ReplyPlaintext = z.infer<typeof ReplyPlaintext>;

/** The plaintext of a reply's failure reason (AAD `ringback/v1/reply-error/<replyId>`). */
export const ReplyErrorPlaintext = z.object({ reason: z.string() });
export type ReplyErrorPlaintext = z.infer<typeof ReplyErrorPlaintext>;

/** The plaintext reason when the daemon cannot open a reply (sealed with another key). */
export const CANNOT_DECRYPT_REPLY = "cannot decrypt reply";

/**
 * `POST /local/login` body (local only): what `ringback login` asks a running daemon to do, so the daemon writes
 * its own daemon.json and switches its relay link at once. No `pairing`: create a new account (with `claimCode`
 * when the relay asks for it). `pairing` is a pairing link (the key in its fragment) or a 12-digit code (then
 * `passphrase` gives the key).
 */
export const LocalLoginRequest = z
  .object({
    serverUrl: z.url({ protocol: /^https?$/ }).optional(),
    pairing: z.string().min(1).max(4096).optional(),
    passphrase: z.string().min(1).max(1024).optional(),
    claimCode: z.string().max(40).optional(),
    deviceName: z.string().trim().min(1).max(100).optional(),
  })
  .strict();
export type LocalLoginRequest = z.infer<typeof LocalLoginRequest>;

/** `POST /local/login` (200) and what `ringback login` prints: the identity, never its token. */
export const LocalLoginResult = z.object({
  serverUrl: z.string(),
  accountId: z.string(),
  deviceId: z.string(),
  /** True when this login created the account (the first device); false when it joined one. */
  createdAccount: z.boolean(),
  /** The end-to-end key's id after the login and where the key came from. */
  keyId: z.string(),
  keySource: E2eKeySource,
  /**
   * True when a running daemon had no relay address at its start: its reports wait in the outbox until it is
   * restarted (its link, replies and relayed settings use the new identity at once).
   */
  needsRestart: z.boolean(),
});
export type LocalLoginResult = z.infer<typeof LocalLoginResult>;

/** The daemon's relay link: `not-logged-in` without a relay identity (`ringback login`). */
export const RelayLinkStatus = z.enum([
  "open",
  "connecting",
  "waiting",
  "refused",
  "stopped",
  "not-logged-in",
]);
export type RelayLinkStatus = z.infer<typeof RelayLinkStatus>;

/** The last report the daemon accepted, as its outbox knows it (no text, no brief). */
export const LocalLastReport = z.object({
  eventId: z.string(),
  /** Known while it waits; a finished report keeps only its id, state and time. */
  source: z.string().nullable(),
  acceptedAt: z.string().nullable(),
  /** `accepted` / `generated` while it waits in the outbox; `sent` or `dropped` once finished. */
  state: z.string(),
  /** Why it was dropped (relay status and code), or `duplicate_task`; else null. */
  reason: z.string().nullable(),
  finishedAt: z.string().nullable(),
  /** Tries to send it so far, while it waits. */
  attempts: z.number().int().nonnegative(),
});
export type LocalLastReport = z.infer<typeof LocalLastReport>;

/**
 * `GET /local/status` (local only): what `ringback doctor` asks a running daemon. Identities and counts only:
 * never a key or a token.
 */
export const LocalStatus = z.object({
  port: z.number().int(),
  relay: z.object({
    serverUrl: z.string().nullable(),
    accountId: z.string().nullable(),
    deviceId: z.string().nullable(),
    link: RelayLinkStatus,
  }),
  outbox: z.object({ waiting: z.number().int().nonnegative(), lastReport: LocalLastReport.nullable() }),
});
export type LocalStatus = z.infer<typeof LocalStatus>;
