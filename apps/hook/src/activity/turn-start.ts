import type { Shape } from "../agent/agent-adapter.js";
import type { AgentKind } from "../agent-kind.js";
import { trackerTaskVariable } from "../report/tracker-task.js";

/** `POST /agent-activity` body (protocol's `AgentActivityPost`), or why this turn's start is not posted. */
export type TurnStartResult = { ok: true; body: string } | { ok: false; reason: string };

/**
 * The turn's start from a `UserPromptSubmit` payload, checked by hand (the hook cannot load zod) against protocol's
 * `AgentActivityPost`. The prompt itself is never read: the fleet shows that the agent works, not what it was told.
 */
export function turnStartFrom(
  kind: AgentKind,
  fields: Shape,
  env: NodeJS.ProcessEnv,
  cwd: string,
): TurnStartResult {
  const trackerVariable = trackerTaskVariable(env);
  if (trackerVariable)
    return {
      ok: false,
      reason: `tracker task (${trackerVariable} is set): the daemon follows it from the tracker`,
    };
  const sessionId = fields.session_id;
  if (typeof sessionId !== "string" || sessionId === "" || sessionId.length > 200)
    return { ok: false, reason: "session_id is missing" };
  // Codex runs turns of its own with no rollout file (a title, say); they never end in a report either.
  if (kind === "codex" && (typeof fields.transcript_path !== "string" || fields.transcript_path === ""))
    return { ok: false, reason: "Codex turn without a rollout file (internal turn)" };
  const turnCwd = typeof fields.cwd === "string" && fields.cwd !== "" ? fields.cwd : cwd;
  const body = JSON.stringify({ agent: kind, sessionId, cwd: turnCwd, activity: "turn-started" });
  return { ok: true, body };
}
