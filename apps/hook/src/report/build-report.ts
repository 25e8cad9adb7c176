import type { AgentCompletionPayload, ReportRequest } from "@ringback/protocol";
import type { AgentAdapter } from "../agent/agent-adapter.js";
import { trackerTaskVariable } from "./tracker-task.js";

/** Mirrors the length limits of protocol's `ReportRequest`: an over-long optional field is left out. */
const ID_MAX_CHARS = 200;
const PATH_MAX_CHARS = 4096;

export type BuildReportResult = { report: ReportRequest } | { notReported: string };

export interface BuildReportContext {
  env: NodeJS.ProcessEnv;
  /** The hook's own cwd, which is the session's: used when the payload's cwd is empty. */
  cwd: string;
  now: Date;
  deadline: number;
}

/** Why a Stop payload is not reported (spec: Agent completion hook), or `undefined` when it is. */
function notReportedReason(
  adapter: AgentAdapter,
  payload: AgentCompletionPayload,
  env: NodeJS.ProcessEnv,
): string | undefined {
  const trackerVariable = trackerTaskVariable(env);
  if (trackerVariable)
    return `tracker task (${trackerVariable} is set): the daemon reports it from the tracker`;
  if (payload.stop_hook_active === true) return "stop_hook_active is true: this turn was already reported";
  return adapter.notReportedReason(payload);
}

function optionalText(value: string | null | undefined, maxChars: number): string | undefined {
  return value && value.length <= maxChars ? value : undefined;
}

/** Turns a Stop payload into the `POST /report` body, reading the transcript when the payload lacks the reply. */
export async function buildReport(
  adapter: AgentAdapter,
  payload: AgentCompletionPayload,
  context: BuildReportContext,
): Promise<BuildReportResult> {
  const reason = notReportedReason(adapter, payload, context.env);
  if (reason) return { notReported: reason };

  let text = payload.last_assistant_message;
  let model = payload.model;
  if (typeof text !== "string" && payload.transcript_path) {
    const reply = await adapter.replyFromTranscript(payload.transcript_path, context.deadline);
    text = reply?.text;
    model ??= reply?.model;
  }

  const turnId = optionalText(adapter.turnId(payload), ID_MAX_CHARS);
  const transcriptPath = optionalText(payload.transcript_path, PATH_MAX_CHARS);
  const modelName = optionalText(model, ID_MAX_CHARS);
  const report: ReportRequest = {
    source: adapter.source,
    sessionId: payload.session_id,
    ...(turnId ? { turnId } : {}),
    cwd: payload.cwd || context.cwd,
    text: text ?? "",
    ...(transcriptPath ? { transcriptPath } : {}),
    occurredAt: context.now.toISOString(),
    ...(modelName ? { model: modelName } : {}),
  };
  return { report };
}
