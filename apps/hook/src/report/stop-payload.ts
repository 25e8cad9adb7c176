import type { AgentCompletionPayload } from "@ringback/protocol";
import type { Shape } from "../agent/agent-adapter.js";
import { parseHookInput } from "../agent/hook-input.js";

/** What the hook reads of the Stop payload, or why it could not. */
export type StopPayloadResult = { ok: true; payload: AgentCompletionPayload } | { ok: false; reason: string };

function optionalString(object: Shape, key: string): string | null | undefined | Error {
  const value = object[key];
  if (value === undefined || value === null || typeof value === "string") return value;
  return new Error(`${key} is not a string`);
}

/**
 * Validates the Stop payload by hand (the hook cannot load zod) against protocol's
 * `AgentCompletionPayload`: the same fields, the same types. Unknown fields are ignored.
 */
export function parseStopPayload(text: string): StopPayloadResult {
  const input = parseHookInput(text);
  return input.ok ? stopPayloadFrom(input.fields) : input;
}

/** `parseStopPayload` for stdin already read as a JSON object. */
export function stopPayloadFrom(raw: Shape): StopPayloadResult {
  if (typeof raw.session_id !== "string" || raw.session_id === "") {
    return { ok: false, reason: "session_id is missing" };
  }
  if (typeof raw.cwd !== "string") return { ok: false, reason: "cwd is missing" };
  if (raw.stop_hook_active !== undefined && typeof raw.stop_hook_active !== "boolean") {
    return { ok: false, reason: "stop_hook_active is not a boolean" };
  }
  const payload: AgentCompletionPayload = { session_id: raw.session_id, cwd: raw.cwd };
  if (raw.stop_hook_active !== undefined) payload.stop_hook_active = raw.stop_hook_active;
  for (const key of ["transcript_path", "last_assistant_message", "prompt_id", "turn_id"] as const) {
    const value = optionalString(raw, key);
    if (value instanceof Error) return { ok: false, reason: value.message };
    if (value !== undefined) payload[key] = value;
  }
  for (const key of ["hook_event_name", "model"] as const) {
    if (typeof raw[key] === "string") payload[key] = raw[key];
  }
  return { ok: true, payload };
}
