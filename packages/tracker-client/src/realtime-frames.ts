import type { AgentTask } from "./tasks.js";

/** A finished agent task that worked on an issue, as the watcher reports it. */
export interface TaskFinished {
  workspaceId: string;
  taskId: string;
  agentId: string;
  issueId: string;
  status: "completed" | "failed";
  /** The tracker's reason for a failed task. */
  failureReason: string | null;
  /** Known when the task was found by the catch-up; the realtime event carries no time. */
  completedAt: string | null;
  /** How the watcher learnt of it. */
  via: "realtime" | "catch-up";
}

/** A realtime frame: an event `{type, payload}`, or a refusal `{error}` before the server closes. */
export interface RealtimeFrame {
  type?: string;
  payload?: Record<string, unknown>;
  error?: string;
  /** Who caused the event: `member`, `agent` or `system`, and its id. */
  actor_type?: string;
  actor_id?: string;
}

export function parseFrame(text: string): RealtimeFrame | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as RealtimeFrame)
      : undefined;
  } catch {
    return undefined;
  }
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/**
 * `task:completed` / `task:failed` for a task on an issue. Left out: tasks without an issue (a
 * quick-create task's event carries `issue_id: ""`; its follow-up task on the new issue is reported
 * instead), and a failure the tracker will retry (the retry is reported when it finishes).
 */
export function finishedFromFrame(frame: RealtimeFrame, workspaceId: string): TaskFinished | undefined {
  if (frame.type !== "task:completed" && frame.type !== "task:failed") return undefined;
  const payload = frame.payload ?? {};
  const taskId = text(payload.task_id);
  const issueId = text(payload.issue_id);
  if (taskId === "" || issueId === "" || payload.retry_pending === true) return undefined;
  return {
    workspaceId,
    taskId,
    agentId: text(payload.agent_id),
    issueId,
    status: frame.type === "task:completed" ? "completed" : "failed",
    failureReason: text(payload.failure_reason) || null,
    completedAt: null,
    via: "realtime",
  };
}

/**
 * The same rule for the catch-up's task list: completed or failed issue tasks finished at or after
 * `sinceMs`, except quick-create tasks (linked to their issue only afterwards) and failures already
 * retried by a newer task. Oldest first. The tracker's times are whole seconds, so `sinceMs` counts from the
 * start of its second: a task finished 400 ms after `sinceMs` may carry a time 600 ms before it.
 */
export function finishedFromTasks(tasks: readonly AgentTask[], sinceMs: number): TaskFinished[] {
  const retried = new Set(tasks.map((task) => task.parentTaskId).filter((id) => id !== null));
  const sinceSecondMs = Math.floor(sinceMs / 1000) * 1000;
  return tasks
    .filter(
      (task) =>
        (task.status === "completed" || (task.status === "failed" && !retried.has(task.id))) &&
        task.issueId !== null &&
        task.kind !== "quick_create" &&
        task.completedAt !== null &&
        Date.parse(task.completedAt) >= sinceSecondMs,
    )
    .sort((a, b) => Date.parse(a.completedAt ?? "") - Date.parse(b.completedAt ?? ""))
    .map((task) => ({
      workspaceId: task.workspaceId,
      taskId: task.id,
      agentId: task.agentId,
      issueId: task.issueId ?? "",
      status: task.status === "completed" ? "completed" : "failed",
      failureReason: task.failureReason,
      completedAt: task.completedAt,
      via: "catch-up",
    }));
}
