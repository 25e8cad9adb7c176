import { createHash } from "node:crypto";
import type { CommandHandler, HookEventName } from "./hook-command.js";

/** How Codex names an event in its trust keys and hashes (openai/codex `hook_event_key_label`). */
export const CODEX_EVENT_LABELS: Record<HookEventName, string> = {
  Stop: "stop",
  PermissionRequest: "permission_request",
  UserPromptSubmit: "user_prompt_submit",
};

/** JSON with object keys sorted at every depth and no whitespace: the form Codex hashes. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
      .filter(([, member]) => member !== undefined)
      .sort(([left], [right]) => (left < right ? -1 : left > right ? 1 : 0));
    return `{${entries.map(([key, member]) => `${JSON.stringify(key)}:${canonicalJson(member)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/**
 * The `trusted_hash` Codex expects for a Stop command handler in its own group (see the hook reference):
 * SHA-256 of the canonical JSON of `{event_name: "stop", hooks: [{type, command, timeout, async}]}`;
 * a Stop group has no matcher, and a handler without a timeout counts as 600 s.
 */
export function codexStopTrustHash(handler: CommandHandler): string {
  return codexTrustHash("Stop", handler);
}

/**
 * The `trusted_hash` Codex expects for our command handler of `event` in its own group without a matcher: as for
 * Stop, with the event's label (`permission_request`). Codex hashes a group's matcher only when it has one
 * (openai/codex hooks/src/engine/discovery.rs `command_hook_hash`), and ours has none: it answers every tool.
 */
export function codexTrustHash(event: HookEventName, handler: CommandHandler): string {
  const identity = {
    event_name: CODEX_EVENT_LABELS[event],
    hooks: [{ type: "command", command: handler.command, timeout: handler.timeout, async: false }],
  };
  return `sha256:${createHash("sha256").update(canonicalJson(identity)).digest("hex")}`;
}
