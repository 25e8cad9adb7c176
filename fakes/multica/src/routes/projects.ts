import { HttpError } from "../http-io.js";
import { isUuid } from "../ids.js";
import { ok, type Route, workspaceRoute } from "../router.js";
import { projectJson } from "../serialize.js";

export const projectRoutes: Route[] = [
  // Newest first, optionally filtered by status and priority.
  workspaceRoute("GET", "/api/projects", ({ state, workspace, url }) => {
    const status = url.searchParams.get("status");
    const priority = url.searchParams.get("priority");
    const projects = [...state.projects.values()]
      .filter((project) => project.workspace_id === workspace.id)
      .filter((project) => !status || project.status === status)
      .filter((project) => !priority || project.priority === priority)
      .reverse()
      .map((project) => projectJson(state, project));
    return ok({ projects, total: projects.length });
  }),
  workspaceRoute("GET", "/api/projects/:id", ({ state, workspace, params }) => {
    const id = params.id ?? "";
    if (!isUuid(id)) throw new HttpError(400, "invalid project id");
    const project = state.projects.get(id);
    if (!project || project.workspace_id !== workspace.id) throw new HttpError(404, "project not found");
    return ok(projectJson(state, project));
  }),
];
