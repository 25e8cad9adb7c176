import { HttpError, readJson } from "../http-io.js";
import { isUuid } from "../ids.js";
import type { AgentRecord, UserRecord, WorkspaceRecord } from "../records.js";
import { ok, type Route, workspaceRoute } from "../router.js";
import type { FakeMulticaState } from "../state.js";

const QUICK_CREATE_PRIORITIES = new Set(["urgent", "high", "medium", "low"]);
/** The runtime's CLI must be at least this version for quick-create. */
const MIN_QUICK_CREATE_CLI_VERSION = "0.2.21";

function isOlderVersion(current: string, minimum: string): boolean {
  const parts = (version: string) => version.replace(/^v/, "").split(/[.-]/).slice(0, 3).map(Number);
  const [a, b] = [parts(current), parts(minimum)];
  for (let index = 0; index < 3; index += 1) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0);
    if (difference !== 0) return difference < 0;
  }
  return false;
}

function optionalString(value: unknown): string {
  return typeof value === "string" ? value.trim() : "";
}

/** The same membership, archive and private-agent rules as assigning an issue to the agent. */
function assignableAgent(state: FakeMulticaState, workspace: WorkspaceRecord, user: UserRecord, id: string) {
  if (!isUuid(id)) throw new HttpError(400, "invalid agent_id");
  const agent = state.agents.get(id);
  if (!agent || agent.workspace_id !== workspace.id) {
    throw new HttpError(400, "assignee_id does not refer to an agent of this workspace");
  }
  if (agent.archived_at !== null) throw new HttpError(400, "cannot assign to archived agent");
  if (agent.permission_mode === "private" && agent.owner_id !== user.id) {
    throw new HttpError(403, "you do not have permission to assign work to this agent");
  }
  return agent;
}

/** The agent must be able to run now: a bound runtime that is online, with a recent enough CLI. */
function requireRunnable(state: FakeMulticaState, agent: AgentRecord): void {
  const runtime = agent.runtime_id === "" ? undefined : state.runtimes.get(agent.runtime_id);
  if (!runtime) {
    throw new HttpError(422, "agent_unavailable", {
      code: "agent_unavailable",
      reason: "agent has no runtime bound",
      reason_code: "agent_runtime_required",
    });
  }
  if (runtime.status !== "online") {
    throw new HttpError(422, "agent_unavailable", {
      code: "agent_unavailable",
      reason: `agent runtime is ${runtime.status}`,
      reason_code: "runtime_offline",
    });
  }
  const current = typeof runtime.metadata.cli_version === "string" ? runtime.metadata.cli_version : "";
  if (current === "" || isOlderVersion(current, MIN_QUICK_CREATE_CLI_VERSION)) {
    throw new HttpError(422, "daemon_version_unsupported", {
      code: "daemon_version_unsupported",
      current_version: current,
      min_version: MIN_QUICK_CREATE_CLI_VERSION,
      runtime_id: runtime.id,
    });
  }
}

export const quickCreateRoutes: Route[] = [
  // Enqueues a quick_create task with no issue and answers 202 {task_id}; no task:queued is broadcast.
  workspaceRoute("POST", "/api/issues/quick-create", async ({ state, workspace, user, request }) => {
    const body = await readJson(request);
    const prompt = optionalString(body.prompt);
    if (prompt === "") throw new HttpError(400, "prompt is required");
    const priority = optionalString(body.priority);
    if (priority !== "" && !QUICK_CREATE_PRIORITIES.has(priority)) {
      throw new HttpError(400, "priority must be one of: urgent, high, medium, low");
    }
    const dueDate = optionalString(body.due_date);
    if (dueDate !== "" && !/^\d{4}-\d{2}-\d{2}$/.test(dueDate)) {
      throw new HttpError(400, "invalid due_date format, expected YYYY-MM-DD");
    }
    const agentId = optionalString(body.agent_id);
    const squadId = optionalString(body.squad_id);
    if ((agentId === "") === (squadId === "")) {
      throw new HttpError(400, "exactly one of agent_id or squad_id is required");
    }
    if (squadId !== "") throw new HttpError(404, "squad not found");
    const agent = assignableAgent(state, workspace, user, agentId);
    requireRunnable(state, agent);
    const attachmentIds = body.attachment_ids ?? [];
    if (!Array.isArray(attachmentIds) || !attachmentIds.every((id) => typeof id === "string" && isUuid(id))) {
      throw new HttpError(400, "invalid attachment_ids");
    }
    const projectId = optionalString(body.project_id);
    if (projectId !== "") {
      if (!isUuid(projectId)) throw new HttpError(400, "invalid project_id");
      if (state.projects.get(projectId)?.workspace_id !== workspace.id)
        throw new HttpError(400, "project not found");
    }
    const task = state.addTask({ agent_id: agent.id, kind: "quick_create", status: "queued", issue_id: "" });
    state.quickCreateRequests.set(task.id, {
      task_id: task.id,
      requester_id: user.id,
      prompt,
      agent_id: agent.id,
      project_id: projectId === "" ? null : projectId,
      priority: priority === "" ? null : priority,
      due_date: dueDate === "" ? null : dueDate,
      attachment_ids: attachmentIds as string[],
    });
    return ok({ task_id: task.id }, 202);
  }),
];
