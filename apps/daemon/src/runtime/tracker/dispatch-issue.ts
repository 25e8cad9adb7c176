import type { DispatchIssueFields } from "@ringback/protocol";
import type { Issue } from "@ringback/tracker-client";

/** A dispatch record's issue fields, as the tracker has the issue now. */
export function issueFieldsOf(issue: Issue): DispatchIssueFields {
  return {
    issueId: issue.id,
    issueNumber: issue.number,
    issueIdentifier: issue.identifier,
    title: issue.title,
    status: issue.status,
    priority: issue.priority,
  };
}

/** The agent the issue is assigned to; null when it is a member's or nobody's. */
export function assignedAgentId(issue: Issue): string | null {
  return issue.assigneeType === "agent" ? issue.assigneeId : null;
}
