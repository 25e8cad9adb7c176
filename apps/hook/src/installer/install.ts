import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { AgentKind } from "../agent-kind.js";
import { defaultClaudeHome, defaultCodexHome } from "./agent-homes.js";
import { type AgentHookChange, type EventHandlers, writeClaudeCodeHooks } from "./claude-code-hooks.js";
import { writeCodexHooks } from "./codex-hooks.js";
import { hookHandler } from "./hook-command.js";
import { InstallerError } from "./installer-error.js";
import type { CommandRunner } from "./user-service.js";
import { detectSystemdUser, installUserService, runCommand, uninstallUserService } from "./user-service.js";

export interface InstallOptions {
  /** Claude Code's directory (default `CLAUDE_CONFIG_DIR` or `~/.claude`). */
  claudeHome?: string;
  /** Codex's home (default `CODEX_HOME` or `~/.codex`). */
  codexHome?: string;
  /** The `ringback-hook.mjs` the agents will run (default: the one beside this module). */
  hookPath?: string;
  /** The Node.js that runs it (default: the one running now). */
  nodePath?: string;
  /** `false` leaves the daemon's user service alone. */
  service?: boolean;
  /** The daemon's bin, for the user service's start command. */
  daemonBinPath?: string;
  env?: NodeJS.ProcessEnv;
  home?: string;
  platform?: NodeJS.Platform;
  /** Runs systemctl / launchctl; replaced in tests. */
  runCommand?: CommandRunner;
}

/** What `install`/`uninstall` did, one line each, for the person who ran it. */
export interface InstallSummary {
  lines: string[];
}

/** `dist/ringback-hook.mjs`: this module's sibling, whether it runs as the bin or as the library entry. */
export function bundledHookPath(): string {
  return join(dirname(fileURLToPath(import.meta.url)), "ringback-hook.mjs");
}

function serviceOptions(options: InstallOptions, env: NodeJS.ProcessEnv) {
  const run = options.runCommand ?? runCommand;
  return {
    home: options.home ?? homedir(),
    nodePath: options.nodePath ?? process.execPath,
    daemonBinPath: options.daemonBinPath ? resolve(options.daemonBinPath) : undefined,
    platform: options.platform ?? process.platform,
    env,
    run,
    hasSystemdUser: () => detectSystemdUser(run),
  };
}

function codexHomeOf(options: InstallOptions, env: NodeJS.ProcessEnv) {
  // An explicit directory is what Codex would get as CODEX_HOME, whose links it resolves.
  if (options.codexHome) return { path: resolve(options.codexHome), resolveLinks: true };
  const fallback = defaultCodexHome(env);
  return { path: fallback.path, resolveLinks: fallback.fromEnvironment };
}

/** One line per event changed in an agent's hook file, or one saying nothing changed. */
function describe(agent: string, change: AgentHookChange, installing: boolean): string[] {
  if (!change.changed)
    return [`${agent}: ${change.file} already ${installing ? "up to date" : "has no Ringback hook"}`];
  return change.events
    .filter((event) => event.changed)
    .map(({ event, removed }) => {
      if (!installing) return `${agent}: removed ${removed} Ringback ${event} hook(s) from ${change.file}`;
      return `${agent}: ${removed > 0 ? `replaced the Ringback ${event} hook in` : `added the Ringback ${event} hook to`} ${change.file}`;
    });
}

/**
 * `ringback install`: writes the Stop, PermissionRequest and UserPromptSubmit (a turn's start) hooks of both agents (replacing any older Ringback
 * hook, so an event runs it once), Codex's trust records for them, and the daemon's user service.
 */
export function install(options: InstallOptions = {}): InstallSummary {
  const env = options.env ?? process.env;
  const hookPath = resolve(options.hookPath ?? bundledHookPath());
  if (!existsSync(hookPath))
    throw new InstallerError(`the hook bundle ${hookPath} does not exist; build it first`);
  const nodePath = options.nodePath ?? process.execPath;
  const handlersFor = (kind: AgentKind): EventHandlers => ({
    Stop: hookHandler(nodePath, hookPath, kind, "Stop"),
    PermissionRequest: hookHandler(nodePath, hookPath, kind, "PermissionRequest"),
    UserPromptSubmit: hookHandler(nodePath, hookPath, kind, "UserPromptSubmit"),
  });

  const claude = writeClaudeCodeHooks(
    options.claudeHome ?? defaultClaudeHome(env),
    handlersFor("claude-code"),
  );
  const codex = writeCodexHooks(codexHomeOf(options, env), handlersFor("codex"));
  const lines = [
    ...describe("Claude Code", claude, true),
    ...describe("Codex", codex, true),
    codex.configChanged
      ? `Codex: trusted the hooks in ${codex.configFile}`
      : `Codex: ${codex.configFile} already trusts the hooks`,
  ];
  const pinnedNode = nodeInsideNodeModules(nodePath);
  if (pinnedNode) lines.push(pinnedNode);
  if (options.service !== false) lines.push(...installUserService(serviceOptions(options, env)));
  return { lines };
}

/**
 * A warning when the hooks will run a Node that lives inside a `node_modules` folder (a workspace's pinned Node, as
 * `pnpm ringback install` gives): it goes when that folder is cleaned or the checkout moves, and every hook then
 * fails without a word. Null for a Node installed on the system.
 */
function nodeInsideNodeModules(nodePath: string): string | null {
  if (!nodePath.split(/[\\/]/).includes("node_modules")) return null;
  return (
    `Note: the hooks run the Node at ${nodePath}, inside a node_modules folder; if that folder is removed or moved, ` +
    "the agents' hooks stop working: run the install again then (or run it with a Node installed on the system)"
  );
}

/**
 * `ringback uninstall`: removes every Ringback Stop, PermissionRequest and UserPromptSubmit hook, their Codex trust records and the
 * user service.
 */
export function uninstall(options: InstallOptions = {}): InstallSummary {
  const env = options.env ?? process.env;
  const claude = writeClaudeCodeHooks(options.claudeHome ?? defaultClaudeHome(env), undefined);
  const codex = writeCodexHooks(codexHomeOf(options, env), undefined);
  const lines = [...describe("Claude Code", claude, false), ...describe("Codex", codex, false)];
  if (codex.configChanged) lines.push(`Codex: removed the hooks' trust records from ${codex.configFile}`);
  if (options.service !== false) lines.push(...uninstallUserService(serviceOptions(options, env)));
  return { lines };
}
