import { isRingbackError } from "@ringback/protocol";
import { ISSUE_LIST_LIMIT_MAX, type Issue, type TrackerClient } from "@ringback/tracker-client";
import { settleLimit, TRACKER_READS_IN_FLIGHT } from "./map-limit.js";

export interface IssueToRead {
  workspaceId: string;
  /** UUID or identifier (`ABC-12`). */
  issueId: string;
  /** The project the issue was last seen in: several issues of one project are read with one list call. */
  projectId?: string | null;
}

export interface IssueReads {
  /** By `issueKey(workspaceId, issueId)` of the request. */
  found: Map<string, Issue>;
  /** Deleted, or not visible with this token. */
  gone: Set<string>;
  /** Any other failure (tracker unreachable, token refused), by key. */
  failed: Map<string, unknown>;
}

export function issueKey(workspaceId: string, issueId: string): string {
  return `${workspaceId}\n${issueId}`;
}

/** The tracker says the issue (or its workspace, for this token) does not exist. */
function isGone(error: unknown): boolean {
  return isRingbackError(error) && (error.code === "issue_not_found" || error.code === "workspace_not_found");
}

/**
 * Reads many issues with few calls: issues known to share a project come from one page of that project's
 * issues by latest activity (the recently dispatched or reported ones are on it); the rest, and any not on
 * the page, one by one. At most TRACKER_READS_IN_FLIGHT calls at a time.
 */
export async function readIssues(client: TrackerClient, issues: readonly IssueToRead[]): Promise<IssueReads> {
  const result: IssueReads = { found: new Map(), gone: new Set(), failed: new Map() };
  const wanted = uniqueByKey(issues);
  const pending = await readProjectPages(client, wanted, result);
  const reads = await settleLimit(pending, TRACKER_READS_IN_FLIGHT, (issue) =>
    client.getIssue({ workspaceId: issue.workspaceId, issueId: issue.issueId }),
  );
  reads.forEach((read, index) => {
    const issue = pending[index] as IssueToRead;
    const key = issueKey(issue.workspaceId, issue.issueId);
    if (read.status === "fulfilled") result.found.set(key, read.value);
    else if (isGone(read.reason)) result.gone.add(key);
    else result.failed.set(key, read.reason);
  });
  return result;
}

/** Fills `result` from project pages; returns the issues still to read one by one. */
async function readProjectPages(
  client: TrackerClient,
  issues: readonly IssueToRead[],
  result: IssueReads,
): Promise<IssueToRead[]> {
  const byProject = new Map<string, IssueToRead[]>();
  const alone: IssueToRead[] = [];
  for (const issue of issues) {
    if (!issue.projectId) {
      alone.push(issue);
      continue;
    }
    const group = issueKey(issue.workspaceId, issue.projectId);
    byProject.set(group, [...(byProject.get(group) ?? []), issue]);
  }
  // A page costs one call like a single read, so it is only worth it for two issues or more.
  const pages = [...byProject.values()].filter((group) => group.length > 1);
  for (const group of byProject.values()) if (group.length === 1) alone.push(...group);
  const listed = await settleLimit(pages, TRACKER_READS_IN_FLIGHT, (group) => {
    const first = group[0] as IssueToRead;
    return client.listProjectIssues({
      workspaceId: first.workspaceId,
      projectId: first.projectId as string,
      limit: ISSUE_LIST_LIMIT_MAX,
    });
  });
  listed.forEach((page, index) => {
    const group = pages[index] as IssueToRead[];
    const onPage = page.status === "fulfilled" ? page.value.issues : [];
    for (const issue of group) {
      const match = onPage.find((candidate) => matchesReference(candidate, issue.issueId));
      if (match) result.found.set(issueKey(issue.workspaceId, issue.issueId), match);
      else alone.push(issue);
    }
  });
  return alone;
}

function matchesReference(issue: Issue, reference: string): boolean {
  return issue.id === reference || issue.identifier.toLowerCase() === reference.toLowerCase();
}

function uniqueByKey(issues: readonly IssueToRead[]): IssueToRead[] {
  const seen = new Map<string, IssueToRead>();
  for (const issue of issues) {
    const key = issueKey(issue.workspaceId, issue.issueId);
    if (!seen.has(key)) seen.set(key, issue);
  }
  return [...seen.values()];
}
