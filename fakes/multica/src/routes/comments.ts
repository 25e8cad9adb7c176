import { HttpError, readJson } from "../http-io.js";
import { isUuid } from "../ids.js";
import type { AttachmentRecord, CommentRecord, IssueRecord } from "../records.js";
import { ok, type Route, workspaceRoute } from "../router.js";
import { commentCreatedPayload } from "../serialize.js";
import type { FakeMulticaState } from "../state.js";
import { requireIssue } from "./issue-lookup.js";

const COMMENT_TYPES = new Set(["comment", "progress_update"]);

function stringList(value: unknown, field: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string" && isUuid(item))) {
    throw new HttpError(400, `invalid ${field}`);
  }
  return value as string[];
}

/**
 * A top-level member comment on an agent-assigned issue re-triggers the assignee, unless it starts with
 * `/note`, suppresses that agent, or mentions a member.
 */
function triggerAssignee(
  state: FakeMulticaState,
  issue: IssueRecord,
  comment: CommentRecord,
  suppressed: string[],
): Record<string, unknown>[] {
  if (issue.assignee_type !== "agent" || !issue.assignee_id || comment.parent_id !== null) return [];
  const content = comment.content.trimStart();
  if (
    content.startsWith("/note") ||
    content.includes("mention://member/") ||
    suppressed.includes(issue.assignee_id)
  ) {
    return [];
  }
  const task = state.addTask({
    agent_id: issue.assignee_id,
    issue_id: issue.id,
    kind: "comment",
    status: "queued",
    trigger_comment_id: comment.id,
  });
  state.emit(issue.workspace_id, {
    type: "task:queued",
    payload: { task_id: task.id, agent_id: task.agent_id, issue_id: issue.id, status: task.status },
    actor_id: "",
    actor_type: "system",
  });
  return [{ target_type: "agent", target_id: issue.assignee_id, status: "queued", reason_code: "" }];
}

export const commentRoutes: Route[] = [
  // Chronological; `since` keeps comments created strictly after it.
  workspaceRoute("GET", "/api/issues/:id/comments", ({ state, workspace, params, url }) => {
    const issue = requireIssue(state, workspace, params.id);
    const sinceText = url.searchParams.get("since");
    const since = sinceText === null ? undefined : Date.parse(sinceText);
    if (Number.isNaN(since)) throw new HttpError(400, "invalid since");
    return ok(
      [...state.comments.values()].filter(
        (comment) =>
          comment.issue_id === issue.id && (since === undefined || Date.parse(comment.created_at) > since),
      ),
    );
  }),
  workspaceRoute("POST", "/api/issues/:id/comments", async ({ state, workspace, params, request, user }) => {
    const issue = requireIssue(state, workspace, params.id);
    const body = await readJson(request);
    if (typeof body.content !== "string" || body.content.trim() === "")
      throw new HttpError(400, "content is required");
    const type = body.type ?? "comment";
    if (typeof type !== "string" || !COMMENT_TYPES.has(type))
      throw new HttpError(400, "invalid comment type");
    const parentId = typeof body.parent_id === "string" && body.parent_id !== "" ? body.parent_id : null;
    if (parentId !== null && state.comments.get(parentId)?.issue_id !== issue.id) {
      throw new HttpError(400, "invalid parent comment");
    }
    const attachmentIds = stringList(body.attachment_ids, "attachment_ids");
    const suppressed = stringList(body.suppress_agent_ids, "suppress_agent_ids");
    const attachments = attachmentIds
      .map((id) => state.attachments.get(id))
      .filter((attachment): attachment is AttachmentRecord => attachment?.workspace_id === workspace.id);
    const comment = state.addComment(issue.id, {
      content: body.content.replaceAll("\u0000", ""),
      type: type as CommentRecord["type"],
      parent_id: parentId,
      author_type: "member",
      author_id: user.id,
    });
    for (const attachment of attachments) {
      attachment.issue_id = issue.id;
      attachment.comment_id = comment.id;
    }
    comment.attachments = attachments;
    state.emit(workspace.id, {
      type: "comment:created",
      payload: commentCreatedPayload(issue, comment),
      actor_id: user.id,
      actor_type: "member",
    });
    const triggerOutcomes = triggerAssignee(state, issue, comment, suppressed);
    return ok({ ...comment, issue_revision: issue.revision, trigger_outcomes: triggerOutcomes }, 201);
  }),
];
