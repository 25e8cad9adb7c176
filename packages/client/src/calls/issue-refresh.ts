import { ISSUE_REFERENCES_MAX, type IssueReference, type IssueRefresh } from "@ringback/protocol";
import type { CallRecord } from "./call-record.js";

/**
 * The calls page refreshes priority, update time and project of history records through the daemon's
 * `POST /tracker/issues`: one request per ISSUE_REFERENCES_MAX issues.
 */
export function issueRefreshBatches(records: readonly CallRecord[]): IssueReference[][] {
  const seen = new Set<string>();
  const references: IssueReference[] = [];
  for (const record of records) {
    const issue = record.issue;
    if (!issue) continue;
    const key = `${issue.workspaceId}/${issue.issueId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    references.push({ workspaceId: issue.workspaceId, issueId: issue.issueId });
  }
  const batches: IssueReference[][] = [];
  for (let start = 0; start < references.length; start += ISSUE_REFERENCES_MAX) {
    batches.push(references.slice(start, start + ISSUE_REFERENCES_MAX));
  }
  return batches;
}

/** The record with its issue's current project, priority and update time; unchanged when the issue is not listed. */
export function applyIssueRefresh(record: CallRecord, refreshes: readonly IssueRefresh[]): CallRecord {
  const issue = record.issue;
  if (!issue) return record;
  const refresh = refreshes.find(
    (candidate) => candidate.workspaceId === issue.workspaceId && candidate.issueId === issue.issueId,
  );
  if (!refresh) return record;
  return {
    ...record,
    issue: {
      ...issue,
      projectId: refresh.projectId,
      projectName: refresh.projectName,
      priority: refresh.priority,
      updatedAt: refresh.updatedAt,
    },
  };
}
