import { describeTrackerQuestion } from "@ringback/brief";
import { Report } from "@ringback/protocol";
import type { Comment, TrackerClient } from "@ringback/tracker-client";
import { isAgentWords, type QuestionSighting } from "./question-sighting.js";
import { reportTracker, unlessGone, type WorkspaceNames, workspaceNameOf } from "./task-report.js";
import { trackerEventId } from "./tracker-event-id.js";
import type { TrackerQuestionRecord } from "./tracker-questions.js";

export interface QuestionReport {
  report: Report;
  question: TrackerQuestionRecord;
}

/**
 * The report of an agent's question: the question in words as its text, and what the call and a reply to it need.
 * Its event id and its tracker "task id" derive from the sighting's key alone, so every computer that sees the
 * question reports it under the same ids and the relay rings it once. Null when there is nothing to ask about: the
 * issue is gone, or a move to blocked came with a comment that already rang as a mention.
 */
export async function readQuestionReport(
  client: TrackerClient,
  sighting: QuestionSighting,
  userId: string,
  workspaceNames: WorkspaceNames,
): Promise<QuestionReport | null> {
  const { workspaceId, issueId, agentId } = sighting;
  const [issue, agent, workspaceName, comments] = await Promise.all([
    unlessGone(client.getIssue({ workspaceId, issueId }), "issue_not_found"),
    unlessGone(client.getAgent({ workspaceId, agentId }), "agent_not_found"),
    workspaceNameOf(client, workspaceId, workspaceNames),
    sighting.trigger === "blocked"
      ? unlessGone(client.listComments({ workspaceId, issueId }), "issue_not_found")
      : Promise.resolve(null),
  ]);
  if (!issue) return null;
  const lastWords = comments ? lastCommentOf(comments, agentId) : undefined;
  if (lastWords?.content.includes(`mention://member/${userId}`)) return null;
  const commentId = sighting.commentId ?? lastWords?.id ?? null;
  const questionText = sighting.trigger === "blocked" ? (lastWords?.content ?? "") : sighting.question;
  const project = issue.projectId
    ? await unlessGone(client.getProject({ workspaceId, projectId: issue.projectId }), "project_not_found")
    : null;
  const agentName = agent?.name ?? "";
  const question: TrackerQuestionRecord = {
    trigger: sighting.trigger,
    question: questionText,
    commentId,
    workspaceId,
    issueId: issue.id,
    issueIdentifier: issue.identifier,
    issueTitle: issue.title,
    agentName,
  };
  const words = describeTrackerQuestion(question);
  const report = Report.parse({
    eventId: trackerEventId(sighting.key),
    source: "tracker",
    occurredAt: validTime(sighting.occurredAt) ?? issue.updatedAt,
    text: words.spoken,
    tracker: reportTracker({
      workspaceId,
      workspaceName,
      taskId: sighting.key,
      issue,
      projectName: project?.title ?? null,
      agentName,
    }),
  });
  return { report, question };
}

/** The agent's newest comment to people on the issue: what it says with its move to blocked. */
function lastCommentOf(comments: readonly Comment[], agentId: string): Comment | undefined {
  return comments.filter((comment) => comment.authorId === agentId && isAgentWords(comment)).at(-1);
}

function validTime(text: string): string | null {
  const time = Date.parse(text);
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}
