import { join } from "node:path";
import type { CommandHandler } from "./hook-command.js";
import { readJsonSettings, writeJsonSettings } from "./json-settings-file.js";
import { editStopHooks } from "./stop-hooks.js";

/** What one agent's hook configuration looked like before and after. */
export interface AgentHookChange {
  file: string;
  changed: boolean;
  /** Older Ringback handlers taken out (a reinstall replaces one of them). */
  removed: number;
}

/** Writes (or, with `undefined`, removes) our Stop hook in Claude Code's `settings.json`. */
export function writeClaudeCodeStopHook(
  claudeHome: string,
  handler: CommandHandler | undefined,
): AgentHookChange {
  const file = join(claudeHome, "settings.json");
  const edit = editStopHooks(readJsonSettings(file), handler ? { ...handler } : undefined);
  if (edit.changed) writeJsonSettings(file, edit.document);
  return { file, changed: edit.changed, removed: edit.removed.length };
}
