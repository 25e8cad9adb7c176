import { HttpError } from "../http-io.js";
import { isUuid } from "../ids.js";
import type { TaskRecord } from "../records.js";
import { ok, type Route, userRoute, workspaceRoute } from "../router.js";
import { isTerminal } from "../task-lifecycle.js";
import { requireIssue } from "./issue-lookup.js";

function newestFirst(tasks: Iterable<TaskRecord>): TaskRecord[] {
  return [...tasks].reverse();
}

export const taskRoutes: Route[] = [
  // Idempotent: cancelling a finished task returns it unchanged.
  workspaceRoute("POST", "/api/tasks/:taskId/cancel", ({ state, workspace, params }) => {
    const id = params.taskId ?? "";
    if (!isUuid(id)) throw new HttpError(400, "invalid task id");
    const task = state.tasks.get(id);
    if (!task || task.workspace_id !== workspace.id) throw new HttpError(404, "task not found");
    return ok(state.cancelTask(task.id));
  }),
  workspaceRoute("GET", "/api/issues/:id/task-runs", ({ state, workspace, params }) => {
    const issue = requireIssue(state, workspace, params.id);
    return ok(
      newestFirst(state.tasks.values())
        .filter((task) => task.issue_id === issue.id)
        .map((task) => ({ ...task, usage: [] })),
    );
  }),
  workspaceRoute("GET", "/api/issues/:id/active-task", ({ state, workspace, params }) => {
    const issue = requireIssue(state, workspace, params.id);
    const active = [...state.tasks.values()].filter(
      (task) => task.issue_id === issue.id && !isTerminal(task) && task.status !== "deferred",
    );
    return ok({ tasks: active });
  }),
  // The daemon route that also accepts a personal token, checking membership of the task's workspace.
  userRoute("GET", "/api/daemon/tasks/:taskId/status", ({ state, user, params }) => {
    const task = state.tasks.get(params.taskId ?? "");
    if (!task || !state.isMember(task.workspace_id, user.id)) throw new HttpError(404, "task not found");
    return ok({ status: task.status });
  }),
];
