import { STATUS_CATEGORIES } from "../records.js";
import { ok, type Route, workspaceRoute } from "../router.js";

export const statusRoutes: Route[] = [
  // Board order: category rank, then position, then key. Archived rows only with include_archived=true.
  workspaceRoute("GET", "/api/issue-statuses", ({ state, workspace, url }) => {
    const includeArchived = url.searchParams.get("include_archived") === "true";
    const statuses = [...state.statuses.values()]
      .filter((status) => status.workspace_id === workspace.id)
      .filter((status) => includeArchived || status.archived_at === null)
      .sort(
        (a, b) =>
          STATUS_CATEGORIES.indexOf(a.category) - STATUS_CATEGORIES.indexOf(b.category) ||
          a.position - b.position ||
          a.key.localeCompare(b.key),
      );
    return ok({ statuses, categories: STATUS_CATEGORIES, total: statuses.length });
  }),
];
