import { DISPATCH_ISSUES_MAX } from "@ringback/protocol";
import { z } from "zod";
import { issueSearchQuery } from "./issue-search.js";
import { nullableString } from "./json-fields.js";
import type { Transport } from "./transport.js";

/** The tracker clamps an issue list to this many issues per call. */
export const ISSUE_LIST_LIMIT_MAX = 100;
/** `listIssuesUpdatedSince` reads at most this many pages: the newest 1000 updates are plenty for a catch-up. */
export const UPDATED_ISSUE_PAGES_MAX = 10;

/** `urgent` > `high` > `medium` > `low` > `none`. */
export type IssuePriority = "urgent" | "high" | "medium" | "low" | "none" | (string & {});

export interface Issue {
  id: string;
  workspaceId: string;
  number: number;
  /** `<PREFIX>-<number>`, computed from the workspace's current prefix: a label, not a key. */
  identifier: string;
  title: string;
  description: string | null;
  /** A status key, built-in or custom. */
  status: string;
  /** The status's category (a custom status inherits one); the status itself when the tracker omits it. */
  statusCategory: string;
  priority: IssuePriority;
  assigneeType: "member" | "agent" | "squad" | null;
  assigneeId: string | null;
  creatorType: string;
  creatorId: string;
  projectId: string | null;
  parentIssueId: string | null;
  dueDate: string | null;
  createdAt: string;
  updatedAt: string;
  /** Bumped by comments, status and other edits; null on rows never backfilled. */
  lastActivityAt: string | null;
}

const IssueJson = z
  .object({
    id: z.string(),
    workspace_id: z.string(),
    number: z.number(),
    identifier: z.string(),
    title: z.string(),
    description: nullableString,
    status: z.string(),
    status_category: nullableString,
    priority: z.string().nullish(),
    assignee_type: z.enum(["member", "agent", "squad"]).nullish(),
    assignee_id: nullableString,
    creator_type: z.string().nullish(),
    creator_id: z.string().nullish(),
    project_id: nullableString,
    parent_issue_id: nullableString,
    due_date: nullableString,
    created_at: z.string(),
    updated_at: z.string(),
    last_activity_at: nullableString,
  })
  .transform(
    (json): Issue => ({
      id: json.id,
      workspaceId: json.workspace_id,
      number: json.number,
      identifier: json.identifier,
      title: json.title,
      description: json.description,
      status: json.status,
      statusCategory: json.status_category ?? json.status,
      priority: json.priority ?? "none",
      assigneeType: json.assignee_type ?? null,
      assigneeId: json.assignee_id,
      creatorType: json.creator_type ?? "member",
      creatorId: json.creator_id ?? "",
      projectId: json.project_id,
      parentIssueId: json.parent_issue_id,
      dueDate: json.due_date,
      createdAt: json.created_at,
      updatedAt: json.updated_at,
      lastActivityAt: json.last_activity_at,
    }),
  );

export interface ProjectIssuesQuery {
  workspaceId: string;
  projectId: string;
  /** Words that must all be in the title, or an issue number with or without the workspace prefix. */
  query?: string;
  /** Status keys; only issues in one of them are listed. */
  statuses?: readonly string[];
  /** Default DISPATCH_ISSUES_MAX; the tracker caps it at 100. */
  limit?: number;
}

export function issueOperations(transport: Transport) {
  return {
    /** One issue by UUID or identifier (`ABC-12`); unknown: `issue_not_found`. */
    getIssue(input: { workspaceId: string; issueId: string }): Promise<Issue> {
      return transport.read(
        {
          method: "GET",
          path: `/api/issues/${encodeURIComponent(input.issueId)}`,
          workspaceId: input.workspaceId,
          errors: { notFound: "issue_not_found" },
        },
        IssueJson,
      );
    },

    /**
     * The workspace's issues in one of `statusCategories` updated at or after `since`, latest update first
     * (`sort=updated_at&direction=desc`, page by page until an older one, at most `UPDATED_ISSUE_PAGES_MAX` pages).
     * The tracker's times are whole seconds, so `since` counts from the start of its second.
     */
    async listIssuesUpdatedSince(input: {
      workspaceId: string;
      statusCategories: readonly string[];
      since: Date | string;
    }): Promise<Issue[]> {
      const sinceSecondMs = Math.floor(new Date(input.since).getTime() / 1000) * 1000;
      const found: Issue[] = [];
      for (let page = 0; page < UPDATED_ISSUE_PAGES_MAX; page += 1) {
        const { issues } = await transport.read(
          {
            method: "GET",
            path: "/api/issues",
            workspaceId: input.workspaceId,
            query: {
              status_category: input.statusCategories.join(","),
              sort: "updated_at",
              direction: "desc",
              limit: ISSUE_LIST_LIMIT_MAX,
              offset: page * ISSUE_LIST_LIMIT_MAX,
            },
          },
          z.object({ issues: z.array(IssueJson) }),
        );
        const recent = issues.filter((issue) => Date.parse(issue.updatedAt) >= sinceSecondMs);
        found.push(...recent);
        if (recent.length < issues.length || issues.length < ISSUE_LIST_LIMIT_MAX) break;
      }
      return found;
    },

    /** A project's issues, latest activity first; `total` counts every match, not only this page. */
    listProjectIssues(input: ProjectIssuesQuery): Promise<{ issues: Issue[]; total: number }> {
      const query = input.query === undefined ? "" : issueSearchQuery(input.query);
      return transport.read(
        {
          method: "GET",
          path: "/api/issues",
          workspaceId: input.workspaceId,
          query: {
            project_id: input.projectId,
            sort: "last_activity",
            limit: Math.min(input.limit ?? DISPATCH_ISSUES_MAX, ISSUE_LIST_LIMIT_MAX),
            q: query === "" ? undefined : query,
            statuses: input.statuses && input.statuses.length > 0 ? input.statuses.join(",") : undefined,
          },
          errors: { notFound: "project_not_found", classify: projectFilterFailure },
        },
        z.object({ issues: z.array(IssueJson), total: z.number() }),
      );
    },
  };
}

/** A malformed project id in the filter comes back as `400 invalid project_id`. */
function projectFilterFailure(failure: { status: number; message: string }) {
  return failure.status === 400 && failure.message === "invalid project_id"
    ? ("project_not_found" as const)
    : undefined;
}
