import { HttpError } from "../http-io.js";
import { isUuid } from "../ids.js";
import type { IssueRecord, Priority } from "../records.js";
import { ok, type Route, workspaceRoute } from "../router.js";
import { issueJson } from "../serialize.js";
import { requireIssue } from "./issue-lookup.js";

/** `limit` defaults to 100 and larger values are clamped to 100. */
const ISSUE_LIST_LIMIT_MAX = 100;
const PRIORITY_RANK: Record<Priority, number> = { urgent: 0, high: 1, medium: 2, low: 3, none: 4 };
const CLOSED_CATEGORIES = new Set(["done", "cancelled"]);

function commaList(params: URLSearchParams, ...names: string[]): string[] {
  return names
    .flatMap((name) => (params.get(name) ?? "").split(","))
    .map((part) => part.trim())
    .filter(Boolean);
}

/** The tracker's issue number in a query: `ABC-12` (letters-only prefix) or a bare positive number. */
function queryNumber(query: string): number | undefined {
  const match = /^[a-z]+-(\d+)$/i.exec(query) ?? /^(\d+)$/.exec(query);
  const number = match ? Number(match[1]) : 0;
  return number > 0 ? number : undefined;
}

/** Every title word must match, or the issue number. */
function matchesQuery(issue: IssueRecord, raw: string): boolean {
  const query = raw.trim();
  if (query === "") return true;
  const words = query.toLowerCase().split(/\s+/);
  const title = issue.title.toLowerCase();
  return words.every((word) => title.includes(word)) || issue.number === queryNumber(query);
}

function compareBy(sort: string): (a: IssueRecord, b: IssueRecord) => number {
  switch (sort) {
    case "created_at":
    case "updated_at":
    case "title":
      return (a, b) => String(a[sort]).localeCompare(String(b[sort]));
    case "priority":
      return (a, b) => PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority];
    case "status":
      return (a, b) => a.status.localeCompare(b.status);
    default:
      return (a, b) => a.position - b.position;
  }
}

/** `last_activity_at` DESC NULLS LAST, then id DESC (direction flips the first key only). */
function byLastActivity(direction: string): (a: IssueRecord, b: IssueRecord) => number {
  const sign = direction === "asc" ? 1 : -1;
  return (a, b) => {
    if (a.last_activity_at === null || b.last_activity_at === null) {
      if (a.last_activity_at === b.last_activity_at) return b.id.localeCompare(a.id);
      return a.last_activity_at === null ? 1 : -1;
    }
    const order = sign * a.last_activity_at.localeCompare(b.last_activity_at);
    return order !== 0 ? order : b.id.localeCompare(a.id);
  };
}

export const issueRoutes: Route[] = [
  workspaceRoute("GET", "/api/issues", ({ state, workspace, url }) => {
    const params = url.searchParams;
    const projectIds = commaList(params, "project_id", "project_ids");
    for (const id of projectIds) if (!isUuid(id)) throw new HttpError(400, "invalid project_id");
    const statuses = commaList(params, "status", "statuses");
    const categories = commaList(params, "status_category", "status_categories");
    const priorities = commaList(params, "priority", "priorities");
    const assigneeId = params.get("assignee_id");
    const query = params.get("q") ?? "";
    const category = (issue: IssueRecord) =>
      state.statusCategoryOf(workspace.id, issue.status) ?? issue.status;

    let issues = [...state.issues.values()]
      .filter((issue) => issue.workspace_id === workspace.id)
      .filter((issue) => projectIds.length === 0 || projectIds.includes(issue.project_id ?? ""))
      .filter((issue) => statuses.length === 0 || statuses.includes(issue.status))
      .filter((issue) => categories.length === 0 || categories.includes(category(issue)))
      .filter((issue) => priorities.length === 0 || priorities.includes(issue.priority))
      .filter((issue) => !assigneeId || issue.assignee_id === assigneeId)
      .filter((issue) => matchesQuery(issue, query));

    // open_only takes another path: every open issue by position, ignoring sort, limit and offset.
    if (params.get("open_only") === "true") {
      issues = issues.filter((issue) => !CLOSED_CATEGORIES.has(category(issue))).sort(compareBy("position"));
      return ok({ issues: issues.map((issue) => issueJson(state, issue)), total: issues.length });
    }

    const sort = params.get("sort") ?? "position";
    const direction = params.get("direction") ?? "";
    if (direction !== "" && direction !== "asc" && direction !== "desc")
      throw new HttpError(400, "invalid direction");
    if (sort === "last_activity") {
      issues.sort(byLastActivity(direction));
    } else {
      issues.sort(compareBy(sort));
      if (direction === "desc") issues.reverse();
    }
    const requested = Number(params.get("limit") ?? ISSUE_LIST_LIMIT_MAX);
    const limit = Math.min(
      Number.isInteger(requested) && requested > 0 ? requested : ISSUE_LIST_LIMIT_MAX,
      ISSUE_LIST_LIMIT_MAX,
    );
    const offset = Math.max(0, Number(params.get("offset") ?? 0) || 0);
    const page = issues.slice(offset, offset + limit);
    return ok({ issues: page.map((issue) => issueJson(state, issue)), total: issues.length });
  }),
  workspaceRoute("GET", "/api/issues/:id", ({ state, workspace, params }) =>
    ok(issueJson(state, requireIssue(state, workspace, params.id))),
  ),
];
