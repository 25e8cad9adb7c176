import { z } from "zod";
import { nullableString, optionalId } from "./json-fields.js";
import type { Transport } from "./transport.js";

export interface CommentAttachment {
  id: string;
  filename: string;
  markdownUrl: string | null;
}

export interface Comment {
  id: string;
  issueId: string;
  /** `member` (a user) or `agent`. */
  authorType: string;
  authorId: string;
  content: string;
  /** `comment`, `progress_update`, `status_change` or `system`. */
  type: string;
  parentId: string | null;
  createdAt: string;
  updatedAt: string;
  /** On an agent's comment: the agent task that wrote it. */
  sourceTaskId: string | null;
  attachments: CommentAttachment[];
}

export const CommentJson = z
  .object({
    id: z.string(),
    issue_id: z.string(),
    author_type: z.string(),
    author_id: z.string(),
    content: z.string(),
    type: z.string().nullish(),
    parent_id: optionalId,
    created_at: z.string(),
    updated_at: z.string().nullish(),
    source_task_id: optionalId,
    attachments: z
      .array(z.object({ id: z.string(), filename: z.string(), markdown_url: nullableString }))
      .nullish(),
  })
  .transform(
    (json): Comment => ({
      id: json.id,
      issueId: json.issue_id,
      authorType: json.author_type,
      authorId: json.author_id,
      content: json.content,
      type: json.type ?? "comment",
      parentId: json.parent_id,
      createdAt: json.created_at,
      updatedAt: json.updated_at ?? json.created_at,
      sourceTaskId: json.source_task_id,
      attachments: (json.attachments ?? []).map((attachment) => ({
        id: attachment.id,
        filename: attachment.filename,
        markdownUrl: attachment.markdown_url,
      })),
    }),
  );

export function commentOperations(transport: Transport) {
  return {
    /**
     * The issue's comments in chronological order; with `since`, only those created strictly after it
     * (the tracker's times have second precision: de-duplicate by id).
     */
    listComments(input: { workspaceId: string; issueId: string; since?: Date | string }): Promise<Comment[]> {
      return transport.read(
        {
          method: "GET",
          path: `/api/issues/${encodeURIComponent(input.issueId)}/comments`,
          workspaceId: input.workspaceId,
          query: { since: input.since === undefined ? undefined : new Date(input.since).toISOString() },
          errors: { notFound: "issue_not_found" },
        },
        z.array(CommentJson),
      );
    },

    /**
     * Posts a comment as the token's user (a write: sent once): top-level, or with `parentId` a reply to that
     * comment of the issue. The tracker triggers the assigned agent on a top-level comment, and an agent on a
     * reply to its comment. Unknown issue: `issue_not_found`.
     */
    postComment(input: {
      workspaceId: string;
      issueId: string;
      content: string;
      parentId?: string;
      attachmentIds?: readonly string[];
    }): Promise<Comment> {
      return transport.write(
        {
          method: "POST",
          path: `/api/issues/${encodeURIComponent(input.issueId)}/comments`,
          workspaceId: input.workspaceId,
          json: {
            content: input.content,
            ...(input.parentId ? { parent_id: input.parentId } : {}),
            ...(input.attachmentIds && input.attachmentIds.length > 0
              ? { attachment_ids: input.attachmentIds }
              : {}),
          },
          errors: { notFound: "issue_not_found" },
        },
        CommentJson,
      );
    },
  };
}
