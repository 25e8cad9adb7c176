import { type ChildResult, runToEnd } from "@ringback/test-kit";
import { expectSuccess } from "./expect-success.js";
import { claudeCommand, codexCommand } from "./installed-bins.js";

/** Generous: a cold start of a native agent binary on a busy machine; never a speed check. */
const AGENT_RUN_TIMEOUT_MS = 180_000;

/** One finished turn as the agent itself tells it. */
export interface AgentTurn {
  /** Claude's session id or Codex's thread id, from the agent's own JSON output. */
  sessionId: string;
  /** The final answer the agent printed. */
  finalText: string;
  result: ChildResult;
}

export interface AgentRunContext {
  /** The project directory the agent works in. */
  cwd: string;
  /** The temporary home's environment (with the proxy trap). */
  env: NodeJS.ProcessEnv;
  /** The fake model's base address, ending in `/v1`. */
  modelUrl: string;
}

/** The key Claude Code sends the fake model (any will do; its full-screen form asks once whether to use it). */
export const CLAUDE_API_KEY = "test";

/** Claude Code's environment: the fake model's Messages API, and none of its own calls home. */
export function claudeEnv(context: AgentRunContext): NodeJS.ProcessEnv {
  return {
    ...context.env,
    ANTHROPIC_BASE_URL: context.modelUrl.replace(/\/v1$/, ""),
    ANTHROPIC_API_KEY: CLAUDE_API_KEY,
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  };
}

/**
 * `claude -p <prompt> --output-format json`, or with `--resume <sessionId>`: Claude Code against the fake
 * model's Messages API, as the reference runs it offline.
 */
export async function runClaude(
  context: AgentRunContext,
  prompt: string,
  resumeSessionId?: string,
  /** More flags, e.g. `--permission-mode default`. */
  flags: readonly string[] = [],
): Promise<AgentTurn> {
  const { command, args } = claudeCommand();
  const resume = resumeSessionId === undefined ? [] : ["--resume", resumeSessionId];
  const result = await runToEnd({
    command,
    args: [...args, ...resume, ...flags, "-p", prompt, "--output-format", "json"],
    // Its own process group: a time-out also ends what it started (the npm wrapper's binary, the hooks).
    isGroupLeader: true,
    cwd: context.cwd,
    env: claudeEnv(context),
    timeoutMs: AGENT_RUN_TIMEOUT_MS,
  });
  expectSuccess("claude", result);
  const output = parseJson<{ session_id?: unknown; result?: unknown; is_error?: unknown }>("claude", result);
  if (
    typeof output.session_id !== "string" ||
    typeof output.result !== "string" ||
    output.is_error === true
  ) {
    throw new Error(`claude printed no successful result:\n${result.stdout}\n${result.stderr}`);
  }
  return { sessionId: output.session_id, finalText: output.result, result };
}

/**
 * `codex exec --skip-git-repo-check --json <prompt>`, or `codex exec resume … <threadId> <prompt>`: Codex
 * against the fake model's Responses API (configured in `$CODEX_HOME/config.toml`). No
 * `--dangerously-bypass-hook-trust`: the installer's trust record is what lets the hook run.
 */
export async function runCodex(
  context: AgentRunContext,
  prompt: string,
  resumeThreadId?: string,
  /** More flags of `codex exec`, e.g. `--approve-for-me`. */
  flags: readonly string[] = [],
): Promise<AgentTurn> {
  const { command, args } = codexCommand();
  const exec =
    resumeThreadId === undefined
      ? ["exec", ...flags, "--skip-git-repo-check", "--json", prompt]
      : ["exec", "resume", ...flags, "--skip-git-repo-check", "--json", resumeThreadId, prompt];
  const result = await runToEnd({
    command,
    args: [...args, ...exec],
    isGroupLeader: true,
    cwd: context.cwd,
    env: context.env,
    timeoutMs: AGENT_RUN_TIMEOUT_MS,
  });
  expectSuccess("codex", result);
  let threadId: string | undefined;
  let finalText: string | undefined;
  for (const line of result.stdout.split("\n")) {
    if (!line.startsWith("{")) continue;
    const event = JSON.parse(line) as {
      type?: string;
      thread_id?: string;
      item?: { type?: string; text?: string };
    };
    if (event.type === "thread.started") threadId = event.thread_id;
    if (event.type === "item.completed" && event.item?.type === "agent_message") finalText = event.item.text;
  }
  if (threadId === undefined || finalText === undefined) {
    throw new Error(`codex printed no thread or no answer:\n${result.stdout}\n${result.stderr}`);
  }
  return { sessionId: threadId, finalText, result };
}

function parseJson<T>(what: string, result: ChildResult): T {
  try {
    return JSON.parse(result.stdout) as T;
  } catch (error) {
    throw new Error(`${what} printed no JSON:\n${result.stdout}\n${result.stderr}`, { cause: error });
  }
}
