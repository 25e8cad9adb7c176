import { postAgentComment } from "./agent-activity.js";
import type { CommentRecord, IssueRecord, Priority, TaskRecord } from "./records.js";
import { TERMINAL_TASK_STATUSES } from "./records.js";
import { issueJson } from "./serialize.js";
import { secondsTimestamp } from "./timestamps.js";
import type { TrackerStore } from "./tracker-store.js";

export interface FinishTaskOptions {
  /** The agent's report comment; `null` posts none (as for an empty output). Default: a short report. */
  report?: string | null;
  /** `result.output`; default: the report. */
  output?: string;
}

export interface FailTaskOptions {
  failureReason?: string;
  error?: string;
  /** The tracker will retry: a new queued task points back at the failed one. */
  retryPending?: boolean;
}

export interface CompleteQuickCreateOptions {
  title: string;
  description?: string;
  priority?: Priority;
  status?: string;
  /** An agent-assigned issue outside backlog gets a second, `direct` task; default true. */
  followUp?: boolean;
}

export function isTerminal(task: TaskRecord): boolean {
  return TERMINAL_TASK_STATUSES.includes(task.status);
}

function taskEvent(state: TrackerStore, task: TaskRecord, type: string, extra: Record<string, unknown> = {}) {
  state.emit(task.workspace_id, {
    type,
    payload: {
      task_id: task.id,
      agent_id: task.agent_id,
      issue_id: task.issue_id,
      status: task.status,
      ...extra,
    },
    actor_id: "",
    actor_type: "system",
  });
}

/**
 * Finishes a task the way the tracker does: the agent's report comment first (with `source_task_id`),
 * then the task is completed and `task:completed` is broadcast, so the comment exists when the event
 * arrives.
 */
export function finishTask(
  state: TrackerStore,
  taskId: string,
  options: FinishTaskOptions = {},
): { task: TaskRecord; comment: CommentRecord | null } {
  const task = state.requireTask(taskId);
  const issue = task.issue_id === "" ? undefined : state.requireIssue(task.issue_id);
  const report =
    options.report === undefined
      ? `Finished ${issue ? state.identifierOf(issue) : "the task"}.`
      : options.report;
  const comment = issue && report !== null ? postAgentComment(state, taskId, report) : null;
  task.status = "completed";
  task.completed_at = secondsTimestamp();
  task.result = { output: options.output ?? report ?? "", session_id: "", work_dir: "", branch_name: "" };
  taskEvent(state, task, "task:completed");
  return { task, comment };
}

export function failTask(
  state: TrackerStore,
  taskId: string,
  options: FailTaskOptions = {},
): { task: TaskRecord; retry: TaskRecord | null } {
  const task = state.requireTask(taskId);
  task.status = "failed";
  task.completed_at = secondsTimestamp();
  task.failure_reason = options.failureReason ?? "agent_error";
  task.error = options.error ?? "the agent exited with an error";
  const retryPending = options.retryPending ?? false;
  taskEvent(state, task, "task:failed", { failure_reason: task.failure_reason, retry_pending: retryPending });
  if (!retryPending) return { task, retry: null };
  const retry = state.addTask({
    agent_id: task.agent_id,
    issue_id: task.issue_id,
    kind: task.kind,
    status: "queued",
    attempt: task.attempt + 1,
    parent_task_id: task.id,
  });
  taskEvent(state, retry, "task:queued");
  return { task, retry };
}

/** Cancels a task; cancelling a finished task changes nothing (the tracker's cancel is idempotent). */
export function cancelTask(state: TrackerStore, taskId: string): TaskRecord {
  const task = state.requireTask(taskId);
  if (isTerminal(task)) return task;
  task.status = "cancelled";
  task.completed_at = secondsTimestamp();
  taskEvent(state, task, "task:cancelled");
  return task;
}

/**
 * Completes a quick-create task by creating the issue its agent would write: assigned to the agent,
 * in the requested project, with the uploaded attachments bound. As on the tracker, `task:completed`
 * carries `issue_id: ""` (the pre-link row) and the task is linked to the issue afterwards.
 */
export function completeQuickCreate(
  state: TrackerStore,
  taskId: string,
  options: CompleteQuickCreateOptions,
): { issue: IssueRecord; task: TaskRecord; followUp: TaskRecord | null } {
  const task = state.requireTask(taskId);
  const request = state.quickCreateRequests.get(taskId);
  const issue = state.addIssue(task.workspace_id, {
    title: options.title,
    description: options.description ?? request?.prompt ?? null,
    priority: options.priority ?? (request?.priority as Priority | null) ?? "none",
    status: options.status ?? "todo",
    assignee_type: "agent",
    assignee_id: task.agent_id,
    creator_type: "agent",
    creator_id: task.agent_id,
    project_id: request?.project_id ?? null,
    metadata: { origin_type: "quick_create", origin_id: task.id },
  });
  for (const attachmentId of request?.attachment_ids ?? []) {
    const attachment = state.attachments.get(attachmentId);
    if (attachment) attachment.issue_id = issue.id;
  }
  state.emit(task.workspace_id, {
    type: "issue:created",
    payload: { issue: issueJson(state, issue) },
    actor_id: task.agent_id,
    actor_type: "agent",
  });
  task.status = "completed";
  task.completed_at = secondsTimestamp();
  task.result = { output: `Created ${state.identifierOf(issue)}.` };
  taskEvent(state, task, "task:completed");
  task.issue_id = issue.id;
  let followUp: TaskRecord | null = null;
  if ((options.followUp ?? true) && issue.status !== "backlog") {
    followUp = state.addTask({
      agent_id: task.agent_id,
      issue_id: issue.id,
      kind: "direct",
      status: "queued",
    });
    taskEvent(state, followUp, "task:queued");
  }
  return { issue, task, followUp };
}
