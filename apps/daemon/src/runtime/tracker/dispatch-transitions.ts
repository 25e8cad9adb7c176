import { DISPATCH_COMPLETED_WITHOUT_ISSUE_MS, type DispatchRecord } from "@ringback/protocol";
import type { AgentTask, Issue } from "@ringback/tracker-client";
import { assignedAgentId, issueFieldsOf } from "./dispatch-issue.js";

/** What a refresh learnt of a `creating` record's quick-create task. */
export type TaskOutcome =
  | { kind: "unchanged"; record: DispatchRecord }
  /** The task is linked to an issue: read it, then `createdFromIssue`. */
  | { kind: "issue"; record: DispatchRecord; issueId: string }
  | { kind: "settled"; record: DispatchRecord };

/**
 * The spec's Dispatch record table, for a `creating` record and its task as the tracker has it now (null:
 * the tracker no longer has the task or its agent). Linked to an issue wins over every other state: the
 * issue exists.
 */
export function afterTaskRead(record: DispatchRecord, task: AgentTask | null, now: Date): TaskOutcome {
  if (record.state !== "creating") return { kind: "unchanged", record };
  if (task === null) {
    return settled(record, "failed", "The tracker no longer has the task (or its agent).", now);
  }
  if (task.issueId) return { kind: "issue", record, issueId: task.issueId };
  switch (task.status) {
    case "failed":
      return settled(record, "failed", task.failureReason || task.error || "The task failed.", now);
    case "cancelled":
      return settled(record, "cancelled", null, now);
    case "completed":
      return afterCompletionWithoutIssue(record, task, now);
    default:
      return { kind: "unchanged", record };
  }
}

/** Completed with no issue: still `creating` until a minute after the completion, then `failed`. */
function afterCompletionWithoutIssue(record: DispatchRecord, task: AgentTask, now: Date): TaskOutcome {
  const completedAt = record.taskCompletedAt ?? validTime(task.completedAt) ?? now.toISOString();
  if (now.getTime() - Date.parse(completedAt) >= DISPATCH_COMPLETED_WITHOUT_ISSUE_MS) {
    return settled(
      { ...record, taskCompletedAt: completedAt },
      "failed",
      "The agent finished without creating an issue.",
      now,
    );
  }
  if (record.taskCompletedAt === completedAt) return { kind: "unchanged", record };
  return {
    kind: "settled",
    record: { ...record, taskCompletedAt: completedAt, updatedAt: now.toISOString() },
  };
}

function settled(
  record: DispatchRecord,
  state: "failed" | "cancelled",
  error: string | null,
  now: Date,
): TaskOutcome {
  return { kind: "settled", record: { ...record, state, error, updatedAt: now.toISOString() } };
}

/**
 * `created` with the issue's current title, status and priority (both rows: the task got linked, and the
 * re-read of a created record). `agentName` is the name of the agent the issue is assigned to, "" when none.
 * The same record comes back when nothing changed.
 */
export function createdFromIssue(
  record: DispatchRecord,
  issue: Issue,
  agentName: string,
  now: Date,
): DispatchRecord {
  const agentId = assignedAgentId(issue);
  const next: DispatchRecord = {
    ...record,
    state: "created",
    error: null,
    ...issueFieldsOf(issue),
    projectId: issue.projectId ?? record.projectId,
    agentId,
    agentName: agentId ? agentName : "",
  };
  const isSame = (Object.keys(next) as (keyof DispatchRecord)[]).every(
    (field) => next[field] === record[field],
  );
  return isSame ? record : { ...next, updatedAt: now.toISOString() };
}

function validTime(text: string | null): string | null {
  if (!text) return null;
  const time = Date.parse(text);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}
