import type { Comment, IssueActivity, TrackerClient, TrackerUser } from "@ringback/tracker-client";
import type { Logger } from "../logger.js";
import type { ReportQueue } from "./hook-turns.js";
import { readQuestionReport } from "./question-report.js";
import { type QuestionSighting, questionIn } from "./question-sighting.js";
import type { WorkspaceNames } from "./task-report.js";
import type { TrackerQuestions } from "./tracker-questions.js";

/** What happens with a comment or a status change seen on a watched workspace. */
export type IssueActivityHandler = (client: TrackerClient, activity: IssueActivity) => Promise<void>;

export interface QuestionCallOptions {
  /** The outbox itself: a question's event id is new to the hook-report check too. */
  outbox: ReportQueue;
  questions: TrackerQuestions;
  log: Logger;
}

/** Agents' questions to the user, rung as "needs you" calls. */
export interface QuestionCalls {
  /** A comment or status change seen in realtime. */
  onActivity: IssueActivityHandler;
  /**
   * The comments a finished task wrote, read again (its realtime events may have been missed while disconnected):
   * each question among them rings, once. Resolves to the ids of those that are questions.
   */
  ringQuestionsOf(
    client: TrackerClient,
    workspaceId: string,
    comments: readonly Comment[],
  ): Promise<Set<string>>;
}

/**
 * An agent's question to the user on a watched issue becomes one report in the outbox, its question remembered
 * first (for its brief, its seal and the reply). Its ids derive from the question alone: the outbox refuses it a
 * second time on this computer (after a restart too), and the relay answers another computer `duplicate_task`.
 */
export function createQuestionCalls(options: QuestionCallOptions): QuestionCalls {
  const { outbox, questions, log } = options;
  const workspaceNames: WorkspaceNames = new Map();
  // The token's user, read once per client (a new token means a new client).
  const users = new WeakMap<TrackerClient, Promise<TrackerUser>>();
  const userOf = (client: TrackerClient) => {
    const known = users.get(client);
    if (known) return known;
    const reading = client.getMe();
    users.set(client, reading);
    reading.catch(() => users.delete(client));
    return reading;
  };
  const ring = async (client: TrackerClient, sighting: QuestionSighting, userId: string) => {
    const read = await readQuestionReport(client, sighting, userId, workspaceNames);
    if (!read) {
      log(`tracker: ${sighting.key} needs no call (the issue is gone, or its comment rang already)`);
      return;
    }
    const { report, question } = read;
    await questions.remember(report.eventId, question);
    const result = await outbox.enqueue(report);
    log(
      `tracker: ${question.agentName || "an agent"} asks on ${question.issueIdentifier} (${sighting.trigger}): ${result === "accepted" ? "queued" : "already queued"} as ${report.eventId}`,
    );
  };
  return {
    onActivity: async (client, activity) => {
      if (!mayBeQuestion(activity)) return;
      const user = await userOf(client);
      const sighting = questionIn(activity, user.id);
      if (sighting) await ring(client, sighting, user.id);
    },
    ringQuestionsOf: async (client, workspaceId, comments) => {
      const asked = new Set<string>();
      const candidates = comments.filter((comment) => comment.content.includes("mention://member/"));
      if (candidates.length === 0) return asked;
      const user = await userOf(client);
      for (const comment of candidates) {
        const activity = { kind: "comment" as const, workspaceId, issueId: comment.issueId, comment };
        const sighting = questionIn({ ...activity, actor: { type: "agent", id: comment.authorId } }, user.id);
        if (!sighting) continue;
        asked.add(comment.id);
        await ring(client, sighting, user.id);
      }
      return asked;
    },
  };
}

/** Cheap first look, so the user is read only for activity that could be a question. */
function mayBeQuestion(activity: IssueActivity): boolean {
  return activity.kind === "comment"
    ? activity.comment.authorType === "agent" && activity.comment.content.includes("mention://member/")
    : activity.actor.type === "agent" && activity.statusCategory === "blocked";
}
