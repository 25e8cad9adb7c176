import type { IssueReference, IssueRefresh } from "@ringback/protocol";
import { isRingbackError } from "@ringback/protocol";
import { type Issue, mapLimit, type TrackerClient } from "@ringback/tracker-client";
import { issueKey, readIssues } from "./issue-reads.js";
import { TRACKER_READS_IN_FLIGHT } from "./map-limit.js";

/**
 * `POST /tracker/issues`: each issue's current project, priority and update time, in the order asked,
 * duplicates once. Deleted or inaccessible issues are left out; any other failure (tracker unreachable,
 * token refused) fails the whole call, so that a client never takes an outage for deleted issues.
 */
export async function refreshIssues(
  client: TrackerClient,
  references: readonly IssueReference[],
): Promise<IssueRefresh[]> {
  const reads = await readIssues(client, references);
  const firstFailure = reads.failed.values().next();
  if (!firstFailure.done) throw firstFailure.value;

  const projectNames = await readProjectNames(client, [...reads.found.values()]);

  const refreshes: IssueRefresh[] = [];
  const answered = new Set<string>();
  for (const reference of references) {
    const key = issueKey(reference.workspaceId, reference.issueId);
    const issue = reads.found.get(key);
    if (!issue || answered.has(key)) continue;
    answered.add(key);
    refreshes.push({
      workspaceId: reference.workspaceId,
      issueId: reference.issueId,
      projectId: issue.projectId,
      projectName: issue.projectId
        ? (projectNames.get(issueKey(reference.workspaceId, issue.projectId)) ?? null)
        : null,
      priority: issue.priority,
      updatedAt: issue.updatedAt,
    });
  }
  return refreshes;
}

/** Each project's name once, by `issueKey(workspaceId, projectId)`; a deleted project has none. */
async function readProjectNames(
  client: TrackerClient,
  issues: readonly Issue[],
): Promise<Map<string, string | null>> {
  const projects = new Map<string, { workspaceId: string; projectId: string }>();
  for (const { workspaceId, projectId } of issues) {
    if (projectId) projects.set(issueKey(workspaceId, projectId), { workspaceId, projectId });
  }
  const names = await mapLimit([...projects.values()], TRACKER_READS_IN_FLIGHT, async (project) => {
    try {
      return (await client.getProject(project)).title;
    } catch (error) {
      if (isRingbackError(error) && error.code === "project_not_found") return null;
      throw error;
    }
  });
  return new Map([...projects.keys()].map((key, index) => [key, names[index] ?? null]));
}
