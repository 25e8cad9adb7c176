import { type Comment, CommentJson } from "./comments.js";
import type { RealtimeFrame } from "./realtime-frames.js";

/** Who did something in the tracker, as a realtime frame says: `member`, `agent` or `system`. */
export interface TrackerActor {
  type: string;
  id: string;
}

/** A comment was written on an issue of the workspace (`comment:created`). */
export interface CommentWritten {
  kind: "comment";
  workspaceId: string;
  issueId: string;
  comment: Comment;
  actor: TrackerActor;
}

/** An issue of the workspace changed status (`issue:updated` with `status_changed`). */
export interface StatusChanged {
  kind: "status";
  workspaceId: string;
  issueId: string;
  /** The new status key and its category (a custom status inherits one). */
  status: string;
  statusCategory: string;
  previousStatus: string | null;
  /** The issue's update time after the change: with the issue id, names this change. */
  updatedAt: string;
  actor: TrackerActor;
}

/** What happens on an issue while agents work it, as the watcher reports it from realtime frames. */
export type IssueActivity = CommentWritten | StatusChanged;

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** A `comment:created` or status-changing `issue:updated` frame as activity; other frames are not. */
export function activityFromFrame(frame: RealtimeFrame, workspaceId: string): IssueActivity | undefined {
  const payload = frame.payload ?? {};
  const actor = { type: text(frame.actor_type), id: text(frame.actor_id) };
  if (frame.type === "comment:created") {
    const comment = CommentJson.safeParse(payload.comment);
    if (!comment.success) return undefined;
    return { kind: "comment", workspaceId, issueId: comment.data.issueId, comment: comment.data, actor };
  }
  if (frame.type === "issue:updated" && payload.status_changed === true) {
    const issue = record(payload.issue);
    const issueId = text(issue.id);
    const status = text(issue.status);
    if (issueId === "" || status === "") return undefined;
    return {
      kind: "status",
      workspaceId,
      issueId,
      status,
      statusCategory: text(issue.status_category) || status,
      previousStatus: text(payload.prev_status) || null,
      updatedAt: text(issue.updated_at),
      actor,
    };
  }
  return undefined;
}
