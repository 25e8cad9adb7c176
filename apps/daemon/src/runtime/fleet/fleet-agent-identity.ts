import { basename } from "node:path";
import { PROJECT_NAME_MAX_CHARS, type Report, type ReportSource } from "@ringback/protocol";
import type { FleetAgentIdentity } from "./fleet-change.js";

/** A local agent's session: `<source>:<sessionId>`, its project the working directory's last part. */
export function sessionAgent(source: ReportSource, sessionId: string, cwd: string): FleetAgentIdentity {
  return { agentId: `${source}:${sessionId}`, source, project: projectName(basename(cwd) || cwd) };
}

/** The agent of a report: a tracker task by its task id and the tracker's project, else the session's agent. */
export function reportAgent(report: Report): FleetAgentIdentity | undefined {
  if (report.tracker) {
    const project =
      report.tracker.projectName || report.tracker.issueIdentifier || report.tracker.workspaceName || "";
    return { agentId: `tracker:${report.tracker.taskId}`, source: "tracker", project: projectName(project) };
  }
  if (!report.sessionId) return undefined;
  return sessionAgent(report.source, report.sessionId, report.cwd ?? "");
}

function projectName(name: string): string {
  return Array.from(name).slice(0, PROJECT_NAME_MAX_CHARS).join("");
}
