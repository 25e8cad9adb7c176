import type { PermissionRequestPost } from "@ringback/protocol";
import type { AgentAdapter } from "../agent/agent-adapter.js";
import type { PermissionPayload } from "./permission-payload.js";

/**
 * How long the hook waits for the agent to write this ask's tool call to its transcript before it reads the last
 * words anyway: the agents run the hook first and write a moment later (on a busy machine, later still). A person at
 * the keyboard waits at most this much longer for Codex's dialog; usually the call is there at once.
 */
const TRANSCRIPT_SETTLE_MS = 1000;
const TRANSCRIPT_POLL_MS = 50;

/** Mirrors the length limits of protocol's `PermissionRequestPost`: an over-long optional field is left out. */
const ASK_ID_MAX_CHARS = 200;
const PERMISSION_MODE_MAX_CHARS = 100;

export interface BuildPermissionRequestContext {
  /** The hook's own cwd, which is the session's: used when the payload's cwd is empty. */
  cwd: string;
  /** Epoch ms after which the transcript is no longer searched. */
  deadline: number;
}

function optionalText(value: string | undefined, maxChars: number): string | undefined {
  return value && value.length <= maxChars ? value : undefined;
}

/**
 * Turns a `PermissionRequest` payload into the `POST /permission-requests` body: the ask as the agent gave it,
 * with the agent's last words before asking read from its transcript (the same reader as a Stop's final reply,
 * stopping at the person's prompt: words from an earlier turn are not this ask's).
 * The id of the ask is Claude Code's `tool_use_id`, or Codex's `turn_id` (Codex sends no call id).
 */
export async function buildPermissionRequest(
  adapter: AgentAdapter,
  payload: PermissionPayload,
  context: BuildPermissionRequestContext,
): Promise<PermissionRequestPost> {
  const path = payload.transcript_path;
  if (path)
    await untilAskIsWritten(adapter, path, Math.min(context.deadline, Date.now() + TRANSCRIPT_SETTLE_MS));
  const lastWords = path ? await adapter.lastWordsFromTranscript(path, context.deadline) : null;
  const askId = optionalText(payload.tool_use_id ?? payload.turn_id, ASK_ID_MAX_CHARS);
  const permissionMode = optionalText(payload.permission_mode, PERMISSION_MODE_MAX_CHARS);
  return {
    agent: adapter.source,
    sessionId: payload.session_id,
    cwd: payload.cwd || context.cwd,
    ...(askId ? { askId } : {}),
    toolName: payload.tool_name,
    toolInput: payload.tool_input,
    lastWords: lastWords?.trim() ? lastWords : null,
    ...(permissionMode ? { permissionMode } : {}),
    shortened: [],
  };
}

async function untilAskIsWritten(adapter: AgentAdapter, path: string, until: number): Promise<void> {
  while (!(await adapter.isAskInTranscript(path, until)) && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, TRANSCRIPT_POLL_MS));
  }
}
