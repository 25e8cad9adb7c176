import { homedir } from "node:os";
import { join, resolve } from "node:path";

/** Claude Code's user directory: `CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function defaultClaudeHome(env: NodeJS.ProcessEnv): string {
  return resolve(env.CLAUDE_CONFIG_DIR || join(homedir(), ".claude"));
}

/** Codex's home: `CODEX_HOME`, else `~/.codex`. */
export function defaultCodexHome(env: NodeJS.ProcessEnv): { path: string; fromEnvironment: boolean } {
  return env.CODEX_HOME
    ? { path: resolve(env.CODEX_HOME), fromEnvironment: true }
    : { path: join(homedir(), ".codex"), fromEnvironment: false };
}
