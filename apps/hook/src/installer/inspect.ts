import { existsSync, readFileSync, realpathSync } from "node:fs";
import { join, resolve } from "node:path";
import type { AgentKind } from "../agent-kind.js";
import { defaultClaudeHome, defaultCodexHome } from "./agent-homes.js";
import { codexTrustKey } from "./codex-trust-entries.js";
import { codexTrustHash } from "./codex-trust-hash.js";
import { editEventHooks, type HookPosition } from "./event-hooks.js";
import {
  type CommandHandler,
  type HookEventName,
  hookHandler,
  isRingbackHookCommand,
} from "./hook-command.js";
import { bundledHookPath, type InstallOptions } from "./install.js";
import { readJsonSettings } from "./json-settings-file.js";
import { lineContent, scanToml } from "./toml-tables.js";

/** Whether Codex trusts our Stop handler: it skips an untrusted user hook silently. */
export type CodexTrust = "current" | "stale" | "missing";

/** One agent's Stop hook as the installer would find it, read only. */
export interface AgentHookState {
  readonly agent: AgentKind;
  /** The hook file read (Claude Code's settings.json, Codex's hooks.json). */
  readonly file: string;
  /** A Ringback Stop handler is there (of any version). */
  readonly isInstalled: boolean;
  /** Exactly what `install` writes now: this Node, this hook bundle, one handler. */
  readonly isCurrent: boolean;
  /** The first Ringback handler's command, as written. */
  readonly command: string | null;
  /** Whether every file that command names (the Node and the hook script) exists. */
  readonly isHookFilePresent: boolean;
  /** Codex only: its trust record for the installed handler. */
  readonly trust?: CodexTrust;
  readonly configFile?: string;
  /** The PermissionRequest hook ("needs you" calls) in the same file: the same command, a longer timeout. */
  readonly permission: PermissionHookState;
}

/** One agent's PermissionRequest hook as the installer would find it, read only. */
export interface PermissionHookState {
  /** A Ringback PermissionRequest handler is there (of any version). */
  readonly isInstalled: boolean;
  /** Exactly what `install` writes now. */
  readonly isCurrent: boolean;
  /** Codex only: its trust record for that handler. */
  readonly trust?: CodexTrust;
}

/** What `ringback install` would find for both agents; nothing is written. */
export function inspectInstallation(options: InstallOptions = {}): AgentHookState[] {
  const env = options.env ?? process.env;
  const hookPath = resolve(options.hookPath ?? bundledHookPath());
  const nodePath = options.nodePath ?? process.execPath;
  const claudeFile = join(options.claudeHome ?? defaultClaudeHome(env), "settings.json");
  const codexDirectory = codexDirectoryOf(options, env);
  const codexFile = join(codexDirectory, "hooks.json");
  const configFile = join(codexDirectory, "config.toml");
  const claude = inspectHookFile("claude-code", claudeFile, nodePath, hookPath);
  const codex = inspectHookFile("codex", codexFile, nodePath, hookPath);
  const codexTrust = (event: HookEventName, found: FoundHandler | null) =>
    found ? codexTrustOf(configFile, codexFile, found, event) : "missing";
  return [
    claude.state,
    {
      ...codex.state,
      configFile,
      trust: codexTrust("Stop", codex.found),
      permission: {
        ...codex.state.permission,
        trust: codexTrust("PermissionRequest", codex.permissionFound),
      },
    },
  ];
}

interface FoundHandler {
  position: HookPosition;
  handler: CommandHandler;
}

function inspectHookFile(
  agent: AgentKind,
  file: string,
  nodePath: string,
  hookPath: string,
): { state: AgentHookState; found: FoundHandler | null; permissionFound: FoundHandler | null } {
  const document = readJsonSettings(file);
  const isCurrent = (event: HookEventName, found: FoundHandler | null) =>
    found !== null &&
    !editEventHooks(document, event, { ...hookHandler(nodePath, hookPath, agent, event) }).changed;
  const found = firstRingbackHandler(document, "Stop");
  const permissionFound = firstRingbackHandler(document, "PermissionRequest");
  const command = found?.handler.command ?? null;
  return {
    state: {
      agent,
      file,
      isInstalled: found !== null,
      isCurrent: isCurrent("Stop", found),
      command,
      isHookFilePresent: command !== null && scriptPaths(command).every((path) => existsSync(path)),
      permission: {
        isInstalled: permissionFound !== null,
        isCurrent: isCurrent("PermissionRequest", permissionFound),
      },
    },
    found,
    permissionFound,
  };
}

function firstRingbackHandler(document: Record<string, unknown>, event: HookEventName): FoundHandler | null {
  const hooks = document.hooks as Record<string, unknown> | undefined;
  const groups = Array.isArray(hooks?.[event]) ? (hooks[event] as unknown[]) : [];
  for (const [group, entry] of groups.entries()) {
    const handlers = (entry as { hooks?: unknown })?.hooks;
    if (!Array.isArray(handlers)) continue;
    for (const [index, handler] of handlers.entries()) {
      const { command, timeout } = (handler ?? {}) as { command?: unknown; timeout?: unknown };
      if (typeof command !== "string" || !isRingbackHookCommand(command)) continue;
      return {
        position: { group, handler: index },
        handler: { type: "command", command, timeout: typeof timeout === "number" ? timeout : 600 },
      };
    }
  }
  return null;
}

/** The quoted absolute paths in a hook command (`"<node>" "<ringback-hook.mjs>" <kind>`). */
function scriptPaths(command: string): string[] {
  return [...command.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((match) =>
    (match[1] ?? "").replace(/\\(.)/g, "$1"),
  );
}

function codexTrustOf(
  configFile: string,
  hooksFile: string,
  found: FoundHandler,
  event: HookEventName,
): CodexTrust {
  let text: string;
  try {
    text = readFileSync(configFile, "utf8");
  } catch {
    return "missing";
  }
  const key = codexTrustKey(hooksFile, found.position, event);
  const layout = scanToml(text);
  const table = layout.tables.find(
    (candidate) =>
      !candidate.isArrayTable &&
      candidate.key?.length === 3 &&
      candidate.key[0] === "hooks" &&
      candidate.key[1] === "state" &&
      candidate.key[2] === key,
  );
  if (!table) return "missing";
  const expected = codexTrustHash(event, found.handler);
  for (let line = table.headerLine + 1; line < table.endLine; line += 1) {
    const match = /^\s*trusted_hash\s*=\s*"([^"]*)"/.exec(lineContent(layout.lines[line] as string));
    if (match) return match[1] === expected ? "current" : "stale";
  }
  return "stale";
}

function codexDirectoryOf(options: InstallOptions, env: NodeJS.ProcessEnv): string {
  const home = options.codexHome
    ? { path: resolve(options.codexHome), resolveLinks: true }
    : { path: defaultCodexHome(env).path, resolveLinks: defaultCodexHome(env).fromEnvironment };
  if (!home.resolveLinks) return home.path;
  try {
    return realpathSync(home.path);
  } catch {
    return home.path;
  }
}
