import { z } from "zod";
import { DISPATCH_WORDS_MAX } from "../limits.js";

export const DispatchProject = z.object({ id: z.string(), name: z.string() });
export type DispatchProject = z.infer<typeof DispatchProject>;

export const DispatchAgent = z.object({
  id: z.string(),
  name: z.string(),
  /** True when the computer hosting the agent's tracker runtime is online. */
  online: z.boolean(),
});
export type DispatchAgent = z.infer<typeof DispatchAgent>;

/** `GET /tracker/dispatch/options` (and POST with `{workspaceId}`) response. */
export const DispatchOptions = z.object({
  workspaceId: z.string(),
  projects: z.array(DispatchProject),
  agents: z.array(DispatchAgent),
});
export type DispatchOptions = z.infer<typeof DispatchOptions>;

export const DispatchOptionsRequest = z.object({ workspaceId: z.string().min(1).optional() });
export type DispatchOptionsRequest = z.infer<typeof DispatchOptionsRequest>;

/** `POST /tracker/dispatch/issues` body. */
export const DispatchIssuesRequest = z.object({
  projectId: z.string().min(1),
  query: z.string().max(200).optional(),
  statuses: z.array(z.string().min(1)).optional(),
  workspaceId: z.string().min(1).optional(),
});
export type DispatchIssuesRequest = z.infer<typeof DispatchIssuesRequest>;

export const DispatchIssue = z.object({
  id: z.string(),
  number: z.number().int(),
  identifier: z.string(),
  title: z.string(),
  status: z.string(),
  priority: z.string(),
  updatedAt: z.string(),
});
export type DispatchIssue = z.infer<typeof DispatchIssue>;

export const DispatchIssuesResponse = z.object({ issues: z.array(DispatchIssue) });
export type DispatchIssuesResponse = z.infer<typeof DispatchIssuesResponse>;

/** A status entry: custom statuses included, archived excluded, board order. */
export const StatusEntry = z.object({ key: z.string(), name: z.string() });
export type StatusEntry = z.infer<typeof StatusEntry>;

export const DispatchStatusesRequest = z.object({ workspaceId: z.string().min(1).optional() });
export const DispatchStatusesResponse = z.object({ statuses: z.array(StatusEntry) });
export type DispatchStatusesResponse = z.infer<typeof DispatchStatusesResponse>;

/** `POST /tracker/uploads` body: one image, base64 `data`. */
export const UploadRequest = z.object({
  name: z.string().min(1).max(255),
  type: z.string().min(1).max(100),
  data: z.string().min(1),
  workspaceId: z.string().min(1).optional(),
});
export type UploadRequest = z.infer<typeof UploadRequest>;

export const Attachment = z.object({ id: z.string(), filename: z.string(), markdownUrl: z.string() });
export type Attachment = z.infer<typeof Attachment>;

export const UploadResponse = z.object({ attachment: Attachment });
export type UploadResponse = z.infer<typeof UploadResponse>;

const dispatchWords = z.string().max(DISPATCH_WORDS_MAX).default("");

/** `POST /tracker/dispatches` body to create an issue through quick-create. */
export const CreateIssueDispatchRequest = z.object({
  projectId: z.string().min(1),
  agentId: z.string().min(1),
  prompt: dispatchWords,
  attachments: z.array(Attachment).default([]),
  workspaceId: z.string().min(1).optional(),
});

/** `POST /tracker/dispatches` body to comment on an existing issue. */
export const CommentDispatchRequest = z.object({
  issueId: z.string().min(1),
  prompt: dispatchWords,
  attachments: z.array(Attachment).default([]),
  workspaceId: z.string().min(1).optional(),
});

/** Either form; neither words nor images is refused by the daemon with `invalid_dispatch`. */
export const CreateDispatchRequest = z.union([
  CommentDispatchRequest.strict(),
  CreateIssueDispatchRequest.strict(),
]);
export type CreateDispatchRequest = z.output<typeof CreateDispatchRequest>;

export const DispatchState = z.enum(["creating", "created", "failed", "cancelled"]);
export type DispatchState = z.infer<typeof DispatchState>;

/** One dispatch, as kept in dispatches.json and returned. Only the user's own words are stored. */
export const DispatchRecord = z.object({
  id: z.string(),
  kind: z.enum(["issue", "comment"]),
  state: DispatchState,
  workspaceId: z.string(),
  projectId: z.string().nullable(),
  agentId: z.string().nullable(),
  /** Name of the agent assigned to the issue; empty when none. */
  agentName: z.string(),
  prompt: z.string(),
  /** How many images were attached. */
  images: z.number().int().nonnegative(),
  taskId: z.string().nullable(),
  issueId: z.string().nullable(),
  issueNumber: z.number().int().nullable(),
  issueIdentifier: z.string().nullable(),
  title: z.string().nullable(),
  status: z.string().nullable(),
  priority: z.string().nullable(),
  error: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** When the tracker task completed; a task completed a minute ago with no issue makes the dispatch failed. */
  taskCompletedAt: z.string().nullable(),
});
export type DispatchRecord = z.infer<typeof DispatchRecord>;

/** A dispatch's issue, as the tracker had it when the record was last written. */
export type DispatchIssueFields = Pick<
  DispatchRecord,
  "issueId" | "issueNumber" | "issueIdentifier" | "title" | "status" | "priority"
>;

/** The issue fields of a dispatch whose agent is still writing the issue (quick-create): none yet. */
export const NO_DISPATCH_ISSUE: DispatchIssueFields = {
  issueId: null,
  issueNumber: null,
  issueIdentifier: null,
  title: null,
  status: null,
  priority: null,
};

export const DispatchResponse = z.object({ dispatch: DispatchRecord });
export type DispatchResponse = z.infer<typeof DispatchResponse>;
export const DispatchListResponse = z.object({ dispatches: z.array(DispatchRecord) });
export type DispatchListResponse = z.infer<typeof DispatchListResponse>;

/** `POST /tracker/dispatches/lookup` and `/cancel` body. */
export const DispatchIdRequest = z.object({ id: z.string().min(1) });
export type DispatchIdRequest = z.infer<typeof DispatchIdRequest>;
