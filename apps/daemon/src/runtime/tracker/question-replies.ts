import type { Logger } from "../logger.js";
import type { AgentRunResult } from "../replies/agent-run.js";
import type { TrackerAccess } from "./tracker-access.js";
import type { TrackerQuestions } from "./tracker-questions.js";

/**
 * Replies to tracker question calls: posted as the user's comment on the issue, under the agent's asking comment
 * when there is one (the tracker hands a reply to an agent's comment to that agent, and a top-level comment to the
 * issue's assignee). A write to the tracker is sent once, never retried: a failure settles the reply failed.
 */
export class TrackerQuestionReplies {
  readonly #questions: TrackerQuestions;
  readonly #access: TrackerAccess;
  readonly #log: Logger;

  constructor(options: { questions: TrackerQuestions; access: TrackerAccess; log: Logger }) {
    this.#questions = options.questions;
    this.#access = options.access;
    this.#log = options.log;
  }

  /** Whether the call of this event is a tracker question this computer rang about. */
  answers(eventId: string): boolean {
    return this.#questions.get(eventId) !== undefined;
  }

  async post(eventId: string, text: string): Promise<AgentRunResult> {
    const question = this.#questions.get(eventId);
    if (!question)
      return { isDelivered: false, reason: "this computer does not know the question of this call" };
    try {
      const comment = await this.#access.requireClient().postComment({
        workspaceId: question.workspaceId,
        issueId: question.issueId,
        content: text,
        ...(question.commentId ? { parentId: question.commentId } : {}),
      });
      this.#log(`tracker: reply posted on ${question.issueIdentifier} as comment ${comment.id}`);
      return { isDelivered: true };
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      return {
        isDelivered: false,
        reason: `the comment could not be posted on ${question.issueIdentifier}: ${why}`,
      };
    }
  }
}
