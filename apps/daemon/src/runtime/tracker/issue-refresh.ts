import type { IssueReference, IssueRefresh } from "@ringback/protocol";
import { isRingbackError } from "@ringback/protocol";
import type { TrackerClient } from "@ringback/tracker-client";
import { issueKey, readIssues } from "./issue-reads.js";
import { settleLimit, TRACKER_READS_IN_FLIGHT } from "./map-limit.js";

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

  const projects = new Map<string, { workspaceId: string; projectId: string }>();
  for (const [key, issue] of reads.found) {
    const workspaceId = key.split("\n")[0] as string;
    if (issue.projectId)
      projects.set(issueKey(workspaceId, issue.projectId), { workspaceId, projectId: issue.projectId });
  }
  const projectReads = await settleLimit([...projects.values()], TRACKER_READS_IN_FLIGHT, (project) =>
    client.getProject(project),
  );
  const projectNames = new Map<string, string | null>();
  [...projects.keys()].forEach((key, index) => {
    const read = projectReads[index];
    if (read?.status === "fulfilled") projectNames.set(key, read.value.title);
    else if (isRingbackError(read?.reason) && read.reason.code === "project_not_found")
      projectNames.set(key, null);
    else throw read?.reason;
  });

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
