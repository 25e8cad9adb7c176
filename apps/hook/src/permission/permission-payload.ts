import type { Shape } from "../agent/agent-adapter.js";

/**
 * The fields of a `PermissionRequest` payload the hook uses. Claude Code sends `session_id`, `transcript_path`,
 * `cwd`, `permission_mode`, `tool_name`, `tool_input`, `tool_use_id` (and `permission_suggestions`); Codex sends
 * `session_id`, `turn_id`, `transcript_path` (a string or null), `cwd`, `model`, `permission_mode`, `tool_name`
 * (`Bash`, `NetworkAccess`) and `tool_input` (`{command, description?}`).
 */
export interface PermissionPayload {
  session_id: string;
  cwd: string;
  tool_name: string;
  tool_input: unknown;
  transcript_path?: string | null;
  tool_use_id?: string;
  turn_id?: string;
  permission_mode?: string;
}

export type PermissionPayloadResult =
  | { ok: true; payload: PermissionPayload }
  | { ok: false; reason: string };

function isOptionalText(value: unknown): value is string | null | undefined {
  return value === undefined || value === null || typeof value === "string";
}

/**
 * Validates a `PermissionRequest` payload by hand (the hook cannot load zod). It needs the session, the tool and
 * the tool's input; the rest is optional, and unknown fields are ignored.
 */
export function permissionPayloadFrom(raw: Shape): PermissionPayloadResult {
  if (typeof raw.session_id !== "string" || raw.session_id === "")
    return { ok: false, reason: "session_id is missing" };
  if (typeof raw.cwd !== "string") return { ok: false, reason: "cwd is missing" };
  if (typeof raw.tool_name !== "string" || raw.tool_name === "")
    return { ok: false, reason: "tool_name is missing" };
  if (raw.tool_input === undefined) return { ok: false, reason: "tool_input is missing" };
  for (const key of ["transcript_path", "tool_use_id", "turn_id", "permission_mode"] as const) {
    if (!isOptionalText(raw[key])) return { ok: false, reason: `${key} is not a string` };
  }
  const payload: PermissionPayload = {
    session_id: raw.session_id,
    cwd: raw.cwd,
    tool_name: raw.tool_name,
    tool_input: raw.tool_input,
  };
  if (typeof raw.transcript_path === "string" || raw.transcript_path === null)
    payload.transcript_path = raw.transcript_path;
  for (const key of ["tool_use_id", "turn_id", "permission_mode"] as const) {
    const value = raw[key];
    if (typeof value === "string" && value !== "") payload[key] = value;
  }
  return { ok: true, payload };
}
