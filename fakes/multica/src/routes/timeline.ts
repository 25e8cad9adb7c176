import type { ActivityRecord, CommentRecord } from "../records.js";
import { ok, type Route, workspaceRoute } from "../router.js";
import type { FakeMulticaState } from "../state.js";
import { requireIssue } from "./issue-lookup.js";

/** The tracker keeps the newest this many comments, and as many activities, of an issue's timeline. */
const TIMELINE_HARD_CAP = 2000;

function commentEntry(comment: CommentRecord): Record<string, unknown> {
  return {
    type: "comment",
    id: comment.id,
    actor_type: comment.author_type,
    actor_id: comment.author_id,
    created_at: comment.created_at,
    content: comment.content,
    parent_id: comment.parent_id,
    updated_at: comment.updated_at,
    revision: comment.revision,
    comment_type: comment.type,
    ...(comment.source_task_id ? { source_task_id: comment.source_task_id } : {}),
    ...(comment.attachments.length > 0 ? { attachments: comment.attachments } : {}),
  };
}

function activityEntry(activity: ActivityRecord): Record<string, unknown> {
  return {
    type: "activity",
    id: activity.id,
    actor_type: activity.actor_type,
    actor_id: activity.actor_id,
    created_at: activity.created_at,
    action: activity.action,
    details: activity.details,
  };
}

/** The newest `TIMELINE_HARD_CAP` of an issue's records, oldest first. */
function newest<T extends { id: string; issue_id: string; created_at: string }>(
  state: FakeMulticaState,
  records: Iterable<T>,
  issueId: string,
): T[] {
  const ordered = [...records]
    .filter((record) => record.issue_id === issueId)
    .sort(
      (a, b) =>
        a.created_at.localeCompare(b.created_at) || state.writeOrderOf(a.id) - state.writeOrderOf(b.id),
    );
  return ordered.slice(-TIMELINE_HARD_CAP);
}

export const timelineRoutes: Route[] = [
  // Without paging parameters: one flat array of comments and activities, oldest first (`(created_at, id)`).
  workspaceRoute("GET", "/api/issues/:id/timeline", ({ state, workspace, params }) => {
    const issue = requireIssue(state, workspace, params.id);
    const comments = newest(state, state.comments.values(), issue.id);
    const activities = newest(state, state.activities.values(), issue.id);
    const entries = [
      ...comments.map((comment) => ({ record: comment, entry: commentEntry(comment) })),
      ...activities.map((activity) => ({ record: activity, entry: activityEntry(activity) })),
    ].sort(
      (a, b) =>
        a.record.created_at.localeCompare(b.record.created_at) ||
        state.writeOrderOf(a.record.id) - state.writeOrderOf(b.record.id),
    );
    return ok(entries.map(({ entry }) => entry));
  }),
];
