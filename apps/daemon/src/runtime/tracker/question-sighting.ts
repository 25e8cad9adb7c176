import type { TrackerQuestionTrigger } from "@ringback/protocol";
import type { Comment, IssueActivity } from "@ringback/tracker-client";

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

/** Whether a comment is an agent's words to people (not the tracker's own notes). */
export function isAgentWords(comment: Pick<Comment, "authorType" | "type">): boolean {
  return comment.authorType === "agent" && AGENT_WORDS.has(comment.type);
}

/** The key of a move to blocked: the issue and its update time after the move, as realtime gives it. */
export function blockedQuestionKey(issueId: string, updatedAt: string): string {
  return `question:blocked:${issueId}:${updatedAt}`;
}

/**
 * The question in an activity, or null: an agent's comment written by its task on the issue that mentions the
 * user (`mention://member/<userId>`, the tracker's mention link), or an agent moving the issue into the blocked
 * category. Anything else (the user's own comments, an agent's comment without the mention) is not a question.
 */
export function questionIn(activity: IssueActivity, userId: string): QuestionSighting | null {
  const { workspaceId, issueId } = activity;
  if (activity.kind === "comment") {
    const { comment } = activity;
    if (!isAgentWords(comment) || comment.sourceTaskId === null) return null;
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
    key: blockedQuestionKey(issueId, activity.updatedAt),
    workspaceId,
    issueId,
    agentId: activity.actor.id,
    commentId: null,
    question: "",
    occurredAt: activity.updatedAt,
  };
}
