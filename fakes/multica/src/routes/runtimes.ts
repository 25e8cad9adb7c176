import { ok, type Route, workspaceRoute } from "../router.js";

export const runtimeRoutes: Route[] = [
  workspaceRoute("GET", "/api/runtimes", ({ state, workspace }) =>
    ok([...state.runtimes.values()].filter((runtime) => runtime.workspace_id === workspace.id)),
  ),
];
