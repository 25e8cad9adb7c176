import { type AgentRunContext, type AgentTurn, runClaude, runCodex } from "./agent-runs.js";
import type { AgentSetup } from "./agent-setup.js";
import { ASK, scriptTheAsk } from "./scripted-ask.js";

export interface AgentUnderTest {
  kind: "claude-code" | "codex";
  /** How the phone names the caller. */
  name: string;
  /** The non-interactive form that raises PermissionRequest (see PERMISSION-HOOKS.md). */
  run(context: AgentRunContext, prompt: string): Promise<AgentTurn>;
}

export const CLAUDE: AgentUnderTest = {
  kind: "claude-code",
  name: "Claude Code",
  run: (context, prompt) => runClaude(context, prompt, undefined, ["--permission-mode", "default"]),
};

export const CODEX: AgentUnderTest = {
  kind: "codex",
  name: "Codex",
  // `codex exec` forces the approval policy Never, so it never asks; --approve-for-me asks (the hook first).
  run: (context, prompt) => runCodex(context, prompt, undefined, ["--approve-for-me"]),
};

/** Starts the agent's non-interactive turn on the scripted ask (`scriptTheAsk`); the test awaits it. */
export function startTurn(agent: AgentUnderTest, setup: AgentSetup): Promise<AgentTurn> {
  scriptTheAsk(setup);
  const running = agent.run(setup.context, ASK.prompt);
  // Awaited by each test; a failure while the test waits on something else is reported there, not unhandled.
  running.catch(() => undefined);
  return running;
}

/** Fails with the agent's own output when it ends before `waited` does, rather than waiting in vain. */
export async function whileRunning<T>(running: Promise<AgentTurn>, waited: Promise<T>): Promise<T> {
  const ended = running.then((turn) => {
    throw new Error(`the agent finished first:\n${turn.result.stdout}\n${turn.result.stderr}`);
  });
  return Promise.race([waited, ended]);
}
