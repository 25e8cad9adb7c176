import type { AgentKind } from "../agent-kind.js";
import { PERMISSION_HOOK_TIMEOUT_SECONDS } from "./protocol-constants.js";

/** The agents' hook events the installer registers our command for. */
export type HookEventName = "Stop" | "PermissionRequest" | "UserPromptSubmit";

/** Seconds each agent gives our Stop hook; the hook itself gives up after 5 s. */
const HOOK_HANDLER_TIMEOUT_SECONDS = 10;

/**
 * Seconds each agent gives our handler for an event: a Stop hook and a turn's start are quick; a permission hook
 * waits for a person (the daemon's wait, and the hook's margin, within this).
 */
const HANDLER_TIMEOUT_SECONDS: Record<HookEventName, number> = {
  Stop: HOOK_HANDLER_TIMEOUT_SECONDS,
  PermissionRequest: PERMISSION_HOOK_TIMEOUT_SECONDS,
  UserPromptSubmit: HOOK_HANDLER_TIMEOUT_SECONDS,
};

/** The events the installer registers our command for, in the order it writes them. */
export const HOOK_EVENTS: readonly HookEventName[] = ["Stop", "PermissionRequest", "UserPromptSubmit"];

/** One handler as both agents' hook files write it. */
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

/** Our handler for `event` (the same command for every event: the hook reads which one from its payload). */
export function hookHandler(
  nodePath: string,
  hookPath: string,
  kind: AgentKind,
  event: HookEventName = "Stop",
): CommandHandler {
  return {
    type: "command",
    command: hookCommand(nodePath, hookPath, kind),
    timeout: HANDLER_TIMEOUT_SECONDS[event],
  };
}

// A `ringback-hook` file or bin name anywhere in the command, or the daemon CLI's `ringback hook`.
const RINGBACK_HOOK_FILE = /(^|[\s"'/\\=])ringback-hook(\.[cm]?js)?(?=$|[\s"';&|)])/;
const RINGBACK_HOOK_SUBCOMMAND = /(^|[\s"'/\\=])ringback(\.[cm]?js)?["']?\s+hook(?=$|\s)/;

/** Whether a hook command is one Ringback installed (by any version, from any directory). */
export function isRingbackHookCommand(command: string): boolean {
  return RINGBACK_HOOK_FILE.test(command) || RINGBACK_HOOK_SUBCOMMAND.test(command);
}
