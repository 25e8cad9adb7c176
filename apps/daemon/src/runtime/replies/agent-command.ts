import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { LocalAgentSource } from "@ringback/protocol";

export interface AgentCommand {
  command: string;
  args: string[];
}

/**
 * The command that resumes an agent session with the user's reply (see the agent hooks reference):
 * Claude Code `claude --resume <session> -p <reply>`, Codex `codex exec resume <thread> <reply>` (with
 * `--skip-git-repo-check` outside a git repository, placed before `resume` as Codex wants its exec flags).
 * Binaries come from PATH unless `RINGBACK_CLAUDE_BIN` / `RINGBACK_CODEX_BIN` name one.
 */
export function agentCommand(
  source: LocalAgentSource,
  session: { sessionId: string; cwd: string },
  text: string,
  env: NodeJS.ProcessEnv,
): AgentCommand {
  const prompt = asOperand(text);
  if (source === "claude-code") {
    return {
      command: env.RINGBACK_CLAUDE_BIN?.trim() || "claude",
      args: ["--resume", session.sessionId, "-p", prompt],
    };
  }
  const skipGitCheck = isInsideGitRepository(session.cwd) ? [] : ["--skip-git-repo-check"];
  return {
    command: env.RINGBACK_CODEX_BIN?.trim() || "codex",
    args: ["exec", ...skipGitCheck, "resume", session.sessionId, prompt],
  };
}

/**
 * A reply that starts with "-" would be read as an option by both CLIs; a leading space keeps it an operand
 * and means nothing to the model.
 */
function asOperand(text: string): string {
  return text.startsWith("-") ? ` ${text}` : text;
}

/** True when `directory` or one of its parents holds `.git` (a directory, or a file in a worktree). */
function isInsideGitRepository(directory: string): boolean {
  let current = resolve(directory);
  for (;;) {
    if (existsSync(join(current, ".git"))) return true;
    const parent = dirname(current);
    if (parent === current) return false;
    current = parent;
  }
}
