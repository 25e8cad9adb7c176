import type { PermissionDecision } from "./permission-answer.js";

/** What the agent tells the model when the person denied without a reason. */
export const DEFAULT_DENY_MESSAGE = "Denied from your phone.";

/**
 * The hook's stdout for a decision, in the agents' own format. Claude Code and Codex read the same shape:
 * `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"|"deny","message"?}}}`
 * (Codex: codex-rs/hooks/schema/generated/permission-request.command.output.schema.json, which refuses unknown keys;
 * a deny's `message` goes to the model, Codex's default being "PermissionRequest hook denied approval").
 */
export function agentPermissionAnswer(decision: PermissionDecision): string {
  const answer =
    decision.verdict === "allow"
      ? { behavior: "allow" }
      : { behavior: "deny", message: decision.reason?.trim() || DEFAULT_DENY_MESSAGE };
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: answer } })}\n`;
}
