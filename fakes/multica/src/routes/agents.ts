import { HttpError } from "../http-io.js";
import { isUuid } from "../ids.js";
import type { AgentRecord, WorkspaceRecord } from "../records.js";
import { ok, type Route, workspaceRoute } from "../router.js";
import { agentJson } from "../serialize.js";
import type { FakeMulticaState } from "../state.js";

function loadAgent(state: FakeMulticaState, workspace: WorkspaceRecord, id = ""): AgentRecord {
  if (!isUuid(id)) throw new HttpError(400, "invalid agent id");
  const agent = state.agents.get(id);
  if (!agent || agent.workspace_id !== workspace.id) throw new HttpError(404, "agent not found");
  return agent;
}

export const agentRoutes: Route[] = [
  // Archived agents only with include_archived=true.
  workspaceRoute("GET", "/api/agents", ({ state, workspace, url }) => {
    const includeArchived = url.searchParams.get("include_archived") === "true";
    return ok(
      [...state.agents.values()]
        .filter((agent) => agent.workspace_id === workspace.id)
        .filter((agent) => includeArchived || agent.archived_at === null)
        .map(agentJson),
    );
  }),
  workspaceRoute("GET", "/api/agents/:id", ({ state, workspace, params }) =>
    ok(agentJson(loadAgent(state, workspace, params.id))),
  ),
  // Every task of the agent, newest first, unpaginated.
  workspaceRoute("GET", "/api/agents/:id/tasks", ({ state, workspace, params }) => {
    const agent = loadAgent(state, workspace, params.id);
    return ok([...state.tasks.values()].filter((task) => task.agent_id === agent.id).reverse());
  }),
];
