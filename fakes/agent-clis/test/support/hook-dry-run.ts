import { readdirSync } from "node:fs";
import { join } from "node:path";
import { type AgentCompletionPayload, type LocalAgentSource, ReportRequest } from "@ringback/protocol";
import { runToEnd } from "@ringback/test-kit";
import type { AgentHome } from "./agent-home.js";
import { expectSuccess } from "./expect-success.js";
import { hookBundlePath } from "./installed-bins.js";

const HOOK_RUN_TIMEOUT_MS = 60_000;

/**
 * Where the agent wrote this session's transcript, found as the reference says and not as the hook does:
 * Claude's `~/.claude/projects/<cwd, / and . as ->/<session>.jsonl`; Codex's rollout named by thread id
 * somewhere under `$CODEX_HOME/sessions` (its date is local time, so it is searched, never computed).
 */
export function transcriptOf(kind: LocalAgentSource, home: AgentHome, sessionId: string): string {
  if (kind === "claude-code") {
    return join(home.home, ".claude", "projects", home.project.replace(/[/.]/g, "-"), `${sessionId}.jsonl`);
  }
  const sessions = join(home.codexHome, "sessions");
  const rollout = readdirSync(sessions, { recursive: true, encoding: "utf8" }).find((path) =>
    path.endsWith(`-${sessionId}.jsonl`),
  );
  if (rollout === undefined) throw new Error(`no rollout of thread ${sessionId} under ${sessions}`);
  return join(sessions, rollout);
}

/** `ringback-hook <kind> --dry-run` with this Stop payload on stdin: the report it would send. */
export async function dryRunHook(
  kind: LocalAgentSource,
  payload: AgentCompletionPayload,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<ReportRequest> {
  const result = await runToEnd({
    args: [hookBundlePath(), kind, "--dry-run"],
    isGroupLeader: true,
    cwd,
    env,
    timeoutMs: HOOK_RUN_TIMEOUT_MS,
    input: JSON.stringify(payload),
  });
  expectSuccess(`ringback-hook ${kind} --dry-run`, result);
  return ReportRequest.parse(JSON.parse(result.stdout));
}
