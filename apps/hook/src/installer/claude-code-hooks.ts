import { join } from "node:path";
import { type EventHooksEdit, editEventHooks } from "./event-hooks.js";
import type { HookEventName } from "./hook-command.js";
import { type CommandHandler, HOOK_EVENTS } from "./hook-command.js";
import { readJsonSettingsFile, writeJsonSettingsEdit } from "./json-settings-file.js";

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

/** One event's edit of a hook settings document: our handler for it (none when taking ours out), and what it did. */
interface HandlerEdit {
  event: HookEventName;
  handler: CommandHandler | undefined;
  edit: EventHooksEdit;
}

/**
 * Puts our handler for each event the installer registers into a hook settings `document` (with `undefined`, takes
 * ours out of each), in order; `onEdit` sees each event's edit as it is made. The input is not modified.
 */
export function editOurHandlers(
  document: Record<string, unknown>,
  handlers: EventHandlers,
  onEdit: (edit: HandlerEdit) => void = () => undefined,
): { document: Record<string, unknown>; events: EventChange[] } {
  let edited = document;
  const events: EventChange[] = [];
  for (const event of HOOK_EVENTS) {
    const handler = handlers?.[event];
    const edit = editEventHooks(edited, event, handler ? { ...handler } : undefined);
    edited = edit.document;
    events.push({ event, changed: edit.changed, removed: edit.removed.length });
    onEdit({ event, handler, edit });
  }
  return { document: edited, events };
}

/** Writes (or, with `undefined`, removes) our Stop, PermissionRequest and UserPromptSubmit hooks in Claude Code's `settings.json`. */
export function writeClaudeCodeHooks(claudeHome: string, handlers: EventHandlers): AgentHookChange {
  const file = join(claudeHome, "settings.json");
  const settings = readJsonSettingsFile(file);
  const { document, events } = editOurHandlers(settings.document, handlers);
  const changed = events.some((event) => event.changed);
  if (changed) writeJsonSettingsEdit(settings, document);
  return { file, changed, events };
}
