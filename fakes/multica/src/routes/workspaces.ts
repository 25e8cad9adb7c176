import { workspaceById } from "../auth.js";
import { ok, publicRoute, type Route, userRoute } from "../router.js";

export const workspaceRoutes: Route[] = [
  publicRoute("GET", "/health", () => ok({ status: "ok" })),
  userRoute("GET", "/api/me", ({ user }) => ok({ id: user.id, name: user.name, email: user.email })),
  // The workspaces the token's user belongs to, oldest first.
  userRoute("GET", "/api/workspaces", ({ state, user }) =>
    ok(
      [...state.workspaces.values()]
        .filter((workspace) => state.isMember(workspace.id, user.id))
        .sort((a, b) => a.created_at.localeCompare(b.created_at)),
    ),
  ),
  userRoute("GET", "/api/workspaces/:id", ({ state, user, params }) =>
    ok(workspaceById(state, params.id, user)),
  ),
];
