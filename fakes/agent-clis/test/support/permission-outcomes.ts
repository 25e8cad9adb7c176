import type { FakeToolResult } from "@ringback/fake-model";
import { PermissionAnswer, type PermissionRequestPost } from "@ringback/protocol";
import { expect } from "vitest";
import type { AgentSetup } from "./agent-setup.js";
import { ASK, markerExists } from "./scripted-ask.js";

/** The hook's `POST /permission-requests` the daemon has answered, with its answers, as the tap saw them. */
export function permissionAsks(
  setup: AgentSetup,
): { request: PermissionRequestPost; answer: PermissionAnswer }[] {
  return (
    setup.daemon.requests
      // An ask still waiting has no answer yet.
      .filter((request) => request.path.split("?")[0] === "/permission-requests" && request.answer !== "")
      .map((request) => ({
        request: request.body as PermissionRequestPost,
        answer: PermissionAnswer.parse(JSON.parse(request.answer)),
      }))
  );
}

/** The daemon's answers to the hook so far. */
export const hookAnswers = (setup: AgentSetup) => permissionAsks(setup).map(({ answer }) => answer);

/** The one tool result the agent sent the model (the command's output, a deny's reason, a refusal). */
export function onlyToolResult(setup: AgentSetup): FakeToolResult {
  const results = setup.model.toolResults();
  expect(results).toHaveLength(1);
  return results[0] as FakeToolResult;
}

/** The hook got the device's allow, the command ran, and its output (no refusal) came back in the final answer. */
export function expectTheAllowRan(setup: AgentSetup, finalText: string): void {
  expect(hookAnswers(setup)).toEqual([expect.objectContaining({ outcome: "decided", verdict: "allow" })]);
  expect(markerExists(setup)).toBe(true);
  const result = onlyToolResult(setup);
  expect(result.isError).toBe(false);
  expect(result.text).not.toMatch(/needs approval|Rejected|denied/);
  expect(finalText.trim()).toBe(`${ASK.finalAnswerStart} ${result.text}`.trim());
}

/**
 * The hook got the device's deny with its reason, the command did not run, and the reason reached the model in the
 * agent's next request and came back in its final answer: Claude's is_error tool_result is the reason itself,
 * Codex's function_call_output is `exec_command failed: CreateProcess { message: "Rejected(\"<reason>\")" }`.
 */
export function expectTheDenyReachedTheModel(
  kind: "claude-code" | "codex",
  setup: AgentSetup,
  finalText: string,
): void {
  expect(hookAnswers(setup)).toEqual([
    expect.objectContaining({ outcome: "decided", verdict: "deny", reason: ASK.denyReason }),
  ]);
  expect(markerExists(setup)).toBe(false);
  const result = onlyToolResult(setup);
  if (kind === "claude-code") expect(result).toMatchObject({ text: ASK.denyReason, isError: true });
  else expect(result.text).toContain(`Rejected(\\"${ASK.denyReason}\\")`);
  expect(finalText).toContain(ASK.denyReason);
}
