import type { AgentKind } from "../agent-kind.js";

/** Seconds each agent gives our Stop hook; the hook itself gives up after 5 s. */
const HOOK_HANDLER_TIMEOUT_SECONDS = 10;

/** One Stop handler as both agents' hook files write it. */
export interface CommandHandler {
  type: "command";
  command: string;
  timeout: number;
}

/** Quotes a path for `/bin/sh -c` (Claude) and `$SHELL -c` (Codex). */
export function shellQuote(value: string): string {
  return `"${value.replace(/["\\$`]/g, "\\$&")}"`;
}

/** `"<node>" "<ringback-hook.mjs>" <kind>`: absolute paths, so it runs whatever PATH the agent has. */
export function hookCommand(nodePath: string, hookPath: string, kind: AgentKind): string {
  return `${shellQuote(nodePath)} ${shellQuote(hookPath)} ${kind}`;
}

export function hookHandler(nodePath: string, hookPath: string, kind: AgentKind): CommandHandler {
  return {
    type: "command",
    command: hookCommand(nodePath, hookPath, kind),
    timeout: HOOK_HANDLER_TIMEOUT_SECONDS,
  };
}

// A `ringback-hook` file or bin name anywhere in the command, or the daemon CLI's `ringback hook`.
const RINGBACK_HOOK_FILE = /(^|[\s"'/\\=])ringback-hook(\.[cm]?js)?(?=$|[\s"';&|)])/;
const RINGBACK_HOOK_SUBCOMMAND = /(^|[\s"'/\\=])ringback(\.[cm]?js)?["']?\s+hook(?=$|\s)/;

/** Whether a hook command is one Ringback installed (by any version, from any directory). */
export function isRingbackHookCommand(command: string): boolean {
  return RINGBACK_HOOK_FILE.test(command) || RINGBACK_HOOK_SUBCOMMAND.test(command);
}
