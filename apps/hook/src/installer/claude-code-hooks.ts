import { join } from "node:path";
import { editEventHooks, type HookEventName } from "./event-hooks.js";
import { type CommandHandler, HOOK_EVENTS } from "./hook-command.js";
import { readJsonSettings, writeJsonSettings, writeJsonSettingsOrRemoveEmpty } from "./json-settings-file.js";

/** Our handler for each event the installer registers; `undefined` takes ours out of every one. */
export type EventHandlers = Record<HookEventName, CommandHandler> | undefined;

/** What changed for one event. */
export interface EventChange {
  event: HookEventName;
  changed: boolean;
  /** Older Ringback handlers taken out (a reinstall replaces one of them). */
  removed: number;
}

/** What one agent's hook configuration looked like before and after. */
export interface AgentHookChange {
  file: string;
  changed: boolean;
  events: EventChange[];
}

/** Writes (or, with `undefined`, removes) our Stop and PermissionRequest hooks in Claude Code's `settings.json`. */
export function writeClaudeCodeHooks(claudeHome: string, handlers: EventHandlers): AgentHookChange {
  const file = join(claudeHome, "settings.json");
  let document = readJsonSettings(file);
  const events: EventChange[] = [];
  for (const event of HOOK_EVENTS) {
    const handler = handlers?.[event];
    const edit = editEventHooks(document, event, handler ? { ...handler } : undefined);
    document = edit.document;
    events.push({ event, changed: edit.changed, removed: edit.removed.length });
  }
  const changed = events.some((event) => event.changed);
  if (changed && handlers) writeJsonSettings(file, document);
  else if (changed) writeJsonSettingsOrRemoveEmpty(file, document);
  return { file, changed, events };
}
