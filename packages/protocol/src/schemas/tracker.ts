import { z } from "zod";
import { ISSUE_REFERENCES_MAX } from "../limits.js";

/** `settings` of `GET /tracker/settings`: never the token, only its hint. */
export const TrackerSettings = z.object({
  workspaces: z.array(z.string()),
  tokenHint: z.string(),
});
export type TrackerSettings = z.infer<typeof TrackerSettings>;

/** Connection status of one watched workspace (the spec leaves the fields open). */
export const TrackerWorkspaceStatus = z.object({
  workspaceId: z.string(),
  state: z.enum(["connected", "connecting", "disconnected", "error"]),
  error: z.string().nullable(),
  connectedAt: z.string().nullable(),
});
export type TrackerWorkspaceStatus = z.infer<typeof TrackerWorkspaceStatus>;

/** `GET /tracker/settings` response; `settings` is null when no token is saved. */
export const TrackerSettingsResponse = z.object({
  settings: TrackerSettings.nullable(),
  status: z.object({ workspaces: z.array(TrackerWorkspaceStatus) }),
});
export type TrackerSettingsResponse = z.infer<typeof TrackerSettingsResponse>;

/** `POST /tracker/workspaces` body: without token the saved one is used. */
export const ListTrackerWorkspacesRequest = z.object({ token: z.string().min(1).optional() });
export type ListTrackerWorkspacesRequest = z.infer<typeof ListTrackerWorkspacesRequest>;

export const TrackerWorkspace = z.object({ id: z.string(), name: z.string(), slug: z.string() });
export type TrackerWorkspace = z.infer<typeof TrackerWorkspace>;

export const ListTrackerWorkspacesResponse = z.object({ workspaces: z.array(TrackerWorkspace) });
export type ListTrackerWorkspacesResponse = z.infer<typeof ListTrackerWorkspacesResponse>;

/**
 * `PUT /tracker/settings` body. The older app form `{token, workspaceId}` is read as one workspace;
 * the result is always `{token?, workspaceIds}`.
 */
export const PutTrackerSettingsRequest = z.union([
  z.object({ token: z.string().min(1).optional(), workspaceIds: z.array(z.string().min(1)).min(1) }).strict(),
  z
    .object({ token: z.string().min(1), workspaceId: z.string().min(1) })
    .strict()
    .transform(({ token, workspaceId }) => ({ token, workspaceIds: [workspaceId] })),
]);
export type PutTrackerSettingsRequest = z.output<typeof PutTrackerSettingsRequest>;

/** One issue to refresh. */
export const IssueReference = z.object({ workspaceId: z.string().min(1), issueId: z.string().min(1) });
export type IssueReference = z.infer<typeof IssueReference>;

/** `POST /tracker/issues` body. */
export const RefreshIssuesRequest = z.object({ issues: z.array(IssueReference).max(ISSUE_REFERENCES_MAX) });
export type RefreshIssuesRequest = z.infer<typeof RefreshIssuesRequest>;

/** An entry of `POST /tracker/issues`: the issue's current project, priority and update time. */
export const IssueRefresh = z.object({
  workspaceId: z.string(),
  issueId: z.string(),
  projectId: z.string().nullable(),
  projectName: z.string().nullable(),
  priority: z.string(),
  updatedAt: z.string(),
});
export type IssueRefresh = z.infer<typeof IssueRefresh>;

export const RefreshIssuesResponse = z.object({ issues: z.array(IssueRefresh) });
export type RefreshIssuesResponse = z.infer<typeof RefreshIssuesResponse>;

/** Issue priorities in the order the calls page sorts them. */
export const ISSUE_PRIORITIES = ["urgent", "high", "medium", "low", "none"] as const;
export type IssuePriority = (typeof ISSUE_PRIORITIES)[number];
