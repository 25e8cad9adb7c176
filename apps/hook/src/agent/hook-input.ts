import { isShape, type Shape } from "./agent-adapter.js";

/** The agents' hook events this hook answers. A payload naming no event is taken for a Stop, as before. */
type HookEvent = "Stop" | "PermissionRequest" | "UserPromptSubmit";

const NAMED_EVENTS: ReadonlySet<string> = new Set<HookEvent>(["PermissionRequest", "UserPromptSubmit"]);

/** What the agent wrote on stdin, as a JSON object and the event it is about, or why it is not one. */
export type HookInput = { ok: true; event: HookEvent; fields: Shape } | { ok: false; reason: string };

/**
 * Reads stdin as one JSON object and says which event it is for (`hook_event_name`). Both agents run the same
 * command for every event the installer registers, so this is where the hook tells them apart.
 */
export function parseHookInput(text: string): HookInput {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ok: false, reason: "stdin is not JSON" };
  }
  if (!isShape(raw)) return { ok: false, reason: "stdin is not a JSON object" };
  const named = raw.hook_event_name;
  const event = typeof named === "string" && NAMED_EVENTS.has(named) ? (named as HookEvent) : "Stop";
  return { ok: true, event, fields: raw };
}
