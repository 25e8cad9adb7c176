import { z } from "zod";

/** The agent kinds whose Stop hook reports, and the tracker. */
export const LocalAgentSource = z.enum(["claude-code", "codex"]);
export type LocalAgentSource = z.infer<typeof LocalAgentSource>;
export const ReportSource = z.enum(["claude-code", "codex", "tracker"]);
export type ReportSource = z.infer<typeof ReportSource>;

/** An event id: minted by the daemon, one per agent turn or tracker task; safe in a URL and in AAD. */
export const EventId = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, "must be 1-128 of A-Z a-z 0-9 _ -");
export type EventId = z.infer<typeof EventId>;

/**
 * The Stop payload an agent writes to the hook's stdin (Claude Code and Codex; see the hook reference).
 * Unknown fields are kept: agents add fields between versions.
 */
export const AgentCompletionPayload = z
  .object({
    session_id: z.string().min(1),
    cwd: z.string(),
    transcript_path: z.string().nullish(),
    stop_hook_active: z.boolean().optional(),
    last_assistant_message: z.string().nullish(),
    /** Claude Code: one per user prompt. */
    prompt_id: z.string().nullish(),
    /** Codex: one per turn. */
    turn_id: z.string().nullish(),
    hook_event_name: z.string().optional(),
    model: z.string().optional(),
  })
  .loose();
export type AgentCompletionPayload = z.infer<typeof AgentCompletionPayload>;

/** `POST /report` body, as the hook sends it: the Stop payload normalised. */
export const ReportRequest = z
  .object({
    source: LocalAgentSource,
    sessionId: z.string().min(1).max(200),
    /** Claude's prompt_id or Codex's turn_id; absent from older agents. */
    turnId: z.string().min(1).max(200).optional(),
    cwd: z.string().min(1).max(4096),
    /** The agent's final reply. */
    text: z.string(),
    transcriptPath: z.string().max(4096).optional(),
    /** When the turn finished (ISO 8601); defaults to the time the daemon accepted it. */
    occurredAt: z.iso.datetime({ offset: true }).optional(),
    model: z.string().max(200).optional(),
  })
  .strict();
export type ReportRequest = z.infer<typeof ReportRequest>;

/** `POST /report` answer. */
export const ReportAccepted = z.object({ accepted: z.literal(true) });
export type ReportAccepted = z.infer<typeof ReportAccepted>;

/** What the daemon knows of the tracker issue behind a tracker report. */
export const TrackerReportContext = z.object({
  workspaceId: z.string(),
  workspaceName: z.string().optional(),
  taskId: z.string(),
  issueId: z.string(),
  issueIdentifier: z.string().optional(),
  issueTitle: z.string().optional(),
  projectId: z.string().nullable().optional(),
  projectName: z.string().nullable().optional(),
  priority: z.string().optional(),
  issueUpdatedAt: z.string().optional(),
  agentName: z.string().optional(),
});
export type TrackerReportContext = z.infer<typeof TrackerReportContext>;

/** A report as the outbox keeps it and as it is sealed for the client. */
export const Report = z.object({
  eventId: EventId,
  source: ReportSource,
  occurredAt: z.string(),
  text: z.string(),
  sessionId: z.string().optional(),
  turnId: z.string().optional(),
  cwd: z.string().optional(),
  model: z.string().optional(),
  tracker: TrackerReportContext.optional(),
});
export type Report = z.infer<typeof Report>;
