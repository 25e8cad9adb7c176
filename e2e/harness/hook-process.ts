import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { fromRoot, HOOK_BIN, requireBuilt } from "./paths.ts";
import { type CommandResult, runCommand } from "./service-process.ts";

export type AgentKind = "claude-code" | "codex";

/** Claude Code's Stop payload (the spec's "Agent completion payload"), as scripts/ring.mjs sends it. */
export interface ClaudeStopPayload {
  readonly session_id: string;
  readonly prompt_id: string;
  readonly transcript_path: string;
  readonly cwd: string;
  readonly hook_event_name: "Stop";
  readonly stop_hook_active: boolean;
  readonly last_assistant_message: string;
}

/** A finished Claude Code turn: one new event id per call (the daemon mints it from session and prompt ids). */
export function claudeStopPayload(
  text: string,
  options: { cwd: string; sessionId?: string; promptId?: string },
): ClaudeStopPayload {
  return {
    session_id: options.sessionId ?? randomUUID(),
    prompt_id: options.promptId ?? randomUUID(),
    transcript_path: "",
    cwd: options.cwd,
    hook_event_name: "Stop",
    stop_hook_active: false,
    last_assistant_message: text,
  };
}

/**
 * Claude Code's PermissionRequest payload, as captured from the genuine CLI (fakes/agent-clis/test/fixtures): the agent
 * asks to run `command` with Bash in `cwd`. A new session and prompt each call unless given.
 */
export function claudePermissionPayload(
  command: string,
  options: { cwd: string; sessionId?: string; promptId?: string },
) {
  return {
    session_id: options.sessionId ?? randomUUID(),
    transcript_path: "",
    cwd: options.cwd,
    prompt_id: options.promptId ?? randomUUID(),
    permission_mode: "default",
    hook_event_name: "PermissionRequest",
    tool_name: "Bash",
    tool_input: { command, description: `Run ${command}` },
  };
}

const GENUINE_PERMISSION_PAYLOAD = fromRoot(
  "fakes/agent-clis/test/fixtures/permission-request-claude-code.json",
);

/**
 * Claude Code's PermissionRequest payload with every field the genuine CLI sent (captured from Claude Code 2.1.330 in
 * fakes/agent-clis: its mode, effort and permission suggestions too), asking to run `command` (to create a marker file) in `cwd`, in a new
 * session and prompt.
 */
export function genuinePermissionPayload(
  command: string,
  options: { cwd: string; transcriptPath: string },
): Record<string, unknown> {
  const fixture = JSON.parse(readFileSync(GENUINE_PERMISSION_PAYLOAD, "utf8")) as Record<string, unknown>;
  return {
    ...fixture,
    session_id: randomUUID(),
    prompt_id: randomUUID(),
    cwd: options.cwd,
    transcript_path: options.transcriptPath,
    tool_input: { command, description: "Create the marker file" },
  };
}

/**
 * Runs the real hook bundle, `ringback-hook <kind>`, with `payload` on stdin as the agent does, in `cwd`. `home` is
 * the RINGBACK_HOME it reads daemon.json and local-api.key from. The hook always exits 0; with `isDebug` it says
 * on stderr what the daemon answered.
 */
export function runHook(
  kind: AgentKind,
  payload: object,
  options: { home: string; cwd?: string; env?: Record<string, string>; isDebug?: boolean },
): Promise<CommandResult> {
  const bin = requireBuilt(HOOK_BIN, "@ringback/hook");
  const env = {
    PATH: process.env.PATH,
    HOME: options.home,
    RINGBACK_HOME: options.home,
    ...(options.isDebug === false ? {} : { RINGBACK_HOOK_DEBUG: "1" }),
    ...options.env,
  };
  return runCommand([bin, kind], env, `${JSON.stringify(payload)}\n`, options.cwd);
}
