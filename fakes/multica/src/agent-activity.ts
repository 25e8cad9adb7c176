import type { CommentRecord, IssueRecord } from "./records.js";
import { commentCreatedPayload, issueJson } from "./serialize.js";
import { secondsTimestamp } from "./timestamps.js";
import type { TrackerStore } from "./tracker-store.js";

export interface AgentCommentOptions {
  /** `comment` (default) or `progress_update`. */
  type?: CommentRecord["type"];
  /** A reply to this comment of the issue. */
  parentId?: string;
}

/** Who changes an issue: the user (a member) or an agent, by id. */
export interface IssueActor {
  type: "member" | "agent";
  id: string;
}

/**
 * An agent's comment while its task runs (`multica issue comment add`): written with `source_task_id` and
 * broadcast as `comment:created` from the agent, as the tracker does.
 */
export function postAgentComment(
  state: TrackerStore,
  taskId: string,
  content: string,
  options: AgentCommentOptions = {},
): CommentRecord {
  const task = state.requireTask(taskId);
  const issue = state.requireIssue(task.issue_id);
  const comment = state.addComment(issue.id, {
    content,
    type: options.type ?? "comment",
    parent_id: options.parentId ?? null,
    author_type: "agent",
    author_id: task.agent_id,
    source_task_id: task.id,
  });
  state.emit(issue.workspace_id, {
    type: "comment:created",
    payload: commentCreatedPayload(issue, comment),
    actor_id: task.agent_id,
    actor_type: "agent",
  });
  return comment;
}

export interface StatusChangeOptions {
  /**
   * The activity log dates the move this long after the issue's update time. The tracker logs it just after the update
   * (once the realtime event is out), so its whole-second time can be a second later; default: the same time.
   */
  loggedAfterMs?: number;
}

/**
 * Moves an issue to another status and broadcasts `issue:updated` with `status_changed` and `prev_status`; the
 * move goes into the issue's activity log (`status_changed`, details `{from, to}`, the actor), as the tracker's
 * activity listener records it.
 */
export function changeIssueStatus(
  state: TrackerStore,
  issueId: string,
  status: string,
  actor: IssueActor,
  options: StatusChangeOptions = {},
): IssueRecord {
  const issue = state.requireIssue(issueId);
  const previousStatus = issue.status;
  issue.status = status;
  state.touchIssue(issue);
  state.addActivity(issue.id, {
    actor_type: actor.type,
    actor_id: actor.id,
    action: "status_changed",
    details: { from: previousStatus, to: status },
    ...(options.loggedAfterMs === undefined
      ? {}
      : { created_at: secondsTimestamp(new Date(Date.parse(issue.updated_at) + options.loggedAfterMs)) }),
  });
  state.emit(issue.workspace_id, {
    type: "issue:updated",
    payload: {
      issue: issueJson(state, issue),
      status_changed: true,
      prev_status: previousStatus,
      assignee_changed: false,
      priority_changed: false,
    },
    actor_id: actor.id,
    actor_type: actor.type,
  });
  return issue;
}
