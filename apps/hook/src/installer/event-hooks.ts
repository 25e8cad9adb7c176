import { type HookEventName, isRingbackHookCommand } from "./hook-command.js";

/** A handler's place in `hooks.<event>`: Codex keys its trust records by it. */
export interface HookPosition {
  group: number;
  handler: number;
}

/** The result of putting our handler for one event in (or taking it out of) a hook settings document. */
export interface EventHooksEdit {
  document: Record<string, unknown>;
  changed: boolean;
  /** Where our handlers were before the edit. */
  removed: HookPosition[];
  /** Where our handler is after the edit (install only). */
  added: HookPosition | undefined;
  /** Other handlers whose position changed because ours were taken out. */
  moved: { from: HookPosition; to: HookPosition }[];
}

type Shape = Record<string, unknown>;

function isShape(value: unknown): value is Shape {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isOurs(handler: unknown): boolean {
  return isShape(handler) && typeof handler.command === "string" && isRingbackHookCommand(handler.command);
}

/** `editEventHooks` for `hooks.Stop`. */
export function editStopHooks(input: Shape, handler: Shape | undefined): EventHooksEdit {
  return editEventHooks(input, "Stop", handler);
}

/**
 * Puts `handler` into `document.hooks[event]` (or, with `undefined`, takes ours out), keeping every other key,
 * group and handler. An older Ringback handler is replaced where it stands, so nothing else moves; further
 * ones are removed, so an event runs it once; a group we empty is removed. The input is not modified.
 */
export function editEventHooks(
  input: Shape,
  event: HookEventName,
  handler: Shape | undefined,
): EventHooksEdit {
  const document = structuredClone(input);
  const edit: EventHooksEdit = { document, changed: false, removed: [], added: undefined, moved: [] };
  if (!isShape(document.hooks)) {
    if (!handler) return edit;
    document.hooks = {};
  }
  const hooks = document.hooks as Shape;
  if (!Array.isArray(hooks[event])) {
    if (!handler) return edit;
    hooks[event] = [];
  }
  const groups: unknown[] = [];
  for (const [groupIndex, group] of (hooks[event] as unknown[]).entries()) {
    if (!isShape(group) || !Array.isArray(group.hooks) || !group.hooks.some(isOurs)) {
      noteMoved(edit, groupIndex, groups.length, isShape(group) ? group.hooks : undefined);
      groups.push(group);
      continue;
    }
    const kept: unknown[] = [];
    for (const [handlerIndex, existing] of group.hooks.entries()) {
      const from = { group: groupIndex, handler: handlerIndex };
      if (!isOurs(existing)) {
        if (from.group !== groups.length || from.handler !== kept.length) {
          edit.moved.push({ from, to: { group: groups.length, handler: kept.length } });
        }
        kept.push(existing);
        continue;
      }
      edit.removed.push(from);
      if (handler && !edit.added) {
        edit.added = { group: groups.length, handler: kept.length };
        kept.push(structuredClone(handler));
      }
    }
    if (kept.length > 0) groups.push({ ...group, hooks: kept });
  }
  if (handler && !edit.added) {
    edit.added = { group: groups.length, handler: 0 };
    groups.push({ hooks: [structuredClone(handler)] });
  }
  hooks[event] = groups;
  if (!handler && groups.length === 0 && edit.removed.length > 0) {
    delete hooks[event];
    if (Object.keys(hooks).length === 0) delete document.hooks;
  }
  edit.changed = JSON.stringify(document) !== JSON.stringify(input);
  return edit;
}

function noteMoved(edit: EventHooksEdit, from: number, to: number, handlers: unknown): void {
  if (from === to || !Array.isArray(handlers)) return;
  for (const index of handlers.keys()) {
    edit.moved.push({ from: { group: from, handler: index }, to: { group: to, handler: index } });
  }
}
