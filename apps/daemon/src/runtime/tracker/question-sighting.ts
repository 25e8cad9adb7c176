import type { TrackerQuestionTrigger } from "@ringback/protocol";
import type { IssueActivity } from "@ringback/tracker-client";

/** An agent asking its human something on an issue, as seen in the tracker's realtime activity. */
export interface QuestionSighting {
  trigger: TrackerQuestionTrigger;
  /** Names this question in every computer's eyes: the comment's id, or the issue and its time of the move. */
  key: string;
  workspaceId: string;
  issueId: string;
  agentId: string;
  /** The asking comment; null for a move to blocked (its words are read from the agent's last comment). */
  commentId: string | null;
  question: string;
  occurredAt: string;
}

/** Comment kinds an agent writes to people; `status_change` and `system` are the tracker's own. */
const AGENT_WORDS = new Set(["comment", "progress_update"]);

/**
 * The question in an activity, or null: an agent's comment written by its task on the issue that mentions the
 * user (`mention://member/<userId>`, the tracker's mention link), or an agent moving the issue into the blocked
 * category. Anything else (the user's own comments, an agent's comment without the mention) is not a question.
 */
export function questionIn(activity: IssueActivity, userId: string): QuestionSighting | null {
  const { workspaceId, issueId } = activity;
  if (activity.kind === "comment") {
    const { comment } = activity;
    const isAgentAtWork = comment.authorType === "agent" && comment.sourceTaskId !== null;
    if (!isAgentAtWork || !AGENT_WORDS.has(comment.type)) return null;
    if (!comment.content.includes(`mention://member/${userId}`)) return null;
    return {
      trigger: "mention",
      key: `question:mention:${comment.id}`,
      workspaceId,
      issueId,
      agentId: comment.authorId,
      commentId: comment.id,
      question: comment.content,
      occurredAt: comment.createdAt,
    };
  }
  const isMoveToBlocked =
    activity.statusCategory === "blocked" && activity.previousStatus !== activity.status;
  if (!isMoveToBlocked || activity.actor.type !== "agent" || activity.actor.id === "") return null;
  return {
    trigger: "blocked",
    key: `question:blocked:${issueId}:${activity.updatedAt}`,
    workspaceId,
    issueId,
    agentId: activity.actor.id,
    commentId: null,
    question: "",
    occurredAt: activity.updatedAt,
  };
}
