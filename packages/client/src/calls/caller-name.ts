import type { CallRecord } from "./call-record.js";

/**
 * Who is calling, as a companion shows it: the tracker project (after its workspace when several workspaces are
 * watched), else the agent.
 */
export function callerName(record: CallRecord, isWorkspaceShown = false): string {
  const project = record.issue?.projectName;
  if (record.source === "tracker") {
    const name = project ?? record.payload.report.tracker?.agentName ?? "Tracker";
    const workspace = record.issue?.workspaceName ?? record.issue?.workspaceId;
    return isWorkspaceShown && workspace ? `${workspace} / ${name}` : name;
  }
  return record.source === "claude-code" ? "Claude Code" : "Codex";
}
