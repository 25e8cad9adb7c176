import { type ErrorCode, isRingbackError, Report } from "@ringback/protocol";
import type { AgentTask, Comment, Issue, TaskFinished, TrackerClient } from "@ringback/tracker-client";
import type { TrackerTurn } from "./hook-turns.js";
import { trackerEventId } from "./tracker-event-id.js";

/** Comments written in the task's first second are kept: the tracker's `since` is strict and its times whole seconds. */
const COMMENTS_SINCE_MARGIN_MS = 1000;

export interface TaskReport {
  report: Report;
  /** What the hook would have reported for the same turn (see hook-turns.ts). */
  turn: TrackerTurn;
  /** Every comment the task's agent wrote with this task, oldest first: a question among them rings on its own. */
  taskComments: Comment[];
  /** The comment read as the report; null when the report is the task's output or a sentence of ours. */
  reportCommentId: string | null;
}

/** Workspace names rarely change: read once per daemon run. */
export type WorkspaceNames = Map<string, string>;

/**
 * The report of a finished tracker task (reference: "Detecting an agent finished a task"): the agent's
 * report comment (its last `comment` written by this task), the issue's title, project, priority and update
 * time, and the agent's name. Null when the issue no longer exists (nothing to call about).
 */
export async function readTaskReport(
  client: TrackerClient,
  event: TaskFinished,
  workspaceNames: WorkspaceNames,
  now: Date,
): Promise<TaskReport | null> {
  const { workspaceId, issueId, agentId, taskId } = event;
  const [tasks, issue, agent, workspaceName] = await Promise.all([
    unlessGone(client.listIssueTasks({ workspaceId, issueId }), "issue_not_found"),
    unlessGone(client.getIssue({ workspaceId, issueId }), "issue_not_found"),
    unlessGone(client.getAgent({ workspaceId, agentId }), "agent_not_found"),
    workspaceNameOf(client, workspaceId, workspaceNames),
  ]);
  if (!issue) return null;
  const task = tasks?.find((candidate) => candidate.id === taskId) ?? null;
  const startedAtMs = task?.startedAt ? Date.parse(task.startedAt) : Number.NaN;
  const [comments, project] = await Promise.all([
    client.listComments({
      workspaceId,
      issueId: issue.id,
      ...(Number.isFinite(startedAtMs) ? { since: new Date(startedAtMs - COMMENTS_SINCE_MARGIN_MS) } : {}),
    }),
    issue.projectId
      ? unlessGone(client.getProject({ workspaceId, projectId: issue.projectId }), "project_not_found")
      : null,
  ]);
  const reportComment = lastReportComment(comments, event);
  const completedAt = new Date(task?.completedAt ?? event.completedAt ?? now.toISOString());
  const agentName = agent?.name ?? "";
  const report = Report.parse({
    eventId: trackerEventId(taskId),
    source: "tracker",
    occurredAt: (Number.isNaN(completedAt.getTime()) ? now : completedAt).toISOString(),
    text: reportText({ event, task, issue, agentName, reportComment }),
    tracker: reportTracker({
      workspaceId,
      workspaceName,
      taskId,
      issue,
      projectName: project?.title ?? null,
      agentName,
    }),
  });
  return {
    report,
    taskComments: comments.filter((comment) => isWrittenByTask(comment, event)),
    reportCommentId: reportComment?.id ?? null,
    turn: {
      taskId,
      texts: [task?.output ?? "", reportComment?.content ?? ""],
      startedAtMs: Number.isFinite(startedAtMs) ? startedAtMs : null,
      completedAtMs: Date.parse(report.occurredAt),
    },
  };
}

/** The agent's last plain comment written by this task; progress updates are not the report. */
function lastReportComment(comments: readonly Comment[], event: TaskFinished): Comment | undefined {
  return comments.filter((comment) => isWrittenByTask(comment, event) && comment.type === "comment").at(-1);
}

function isWrittenByTask(comment: Comment, event: TaskFinished): boolean {
  return (
    comment.authorType === "agent" &&
    comment.authorId === event.agentId &&
    comment.sourceTaskId === event.taskId
  );
}

function reportText(input: {
  event: TaskFinished;
  task: AgentTask | null;
  issue: Issue;
  agentName: string;
  reportComment: Comment | undefined;
}): string {
  const { event, task, issue, reportComment } = input;
  const agentName = input.agentName || "The agent";
  const words = (reportComment?.content ?? task?.output ?? "").trim();
  if (event.status === "completed") {
    return words || `${agentName} finished ${issue.identifier} "${issue.title}" without writing a report.`;
  }
  const reason = event.failureReason ?? task?.failureReason ?? task?.error ?? "no reason given";
  const failure = `${agentName} could not finish ${issue.identifier} "${issue.title}" (the task failed: ${reason}).`;
  return words ? `${failure}\n\n${words}` : failure;
}

/** A tracker report's `tracker` part: where the call comes from (workspace, issue, project) and which agent. */
export function reportTracker(input: {
  workspaceId: string;
  workspaceName: string | null | undefined;
  taskId: string;
  issue: Issue;
  projectName: string | null;
  agentName: string;
}) {
  const { workspaceId, workspaceName, taskId, issue, projectName, agentName } = input;
  return {
    workspaceId,
    ...(workspaceName ? { workspaceName } : {}),
    taskId,
    issueId: issue.id,
    issueIdentifier: issue.identifier,
    issueTitle: issue.title,
    projectId: issue.projectId,
    projectName,
    priority: issue.priority,
    issueUpdatedAt: issue.updatedAt,
    agentName,
  };
}

export async function workspaceNameOf(
  client: TrackerClient,
  workspaceId: string,
  names: WorkspaceNames,
): Promise<string | undefined> {
  const known = names.get(workspaceId);
  if (known !== undefined) return known;
  const workspace = await unlessGone(client.getWorkspace({ workspaceId }), "workspace_not_found");
  if (workspace) names.set(workspaceId, workspace.name);
  return workspace?.name;
}

/** The value, or null when the tracker says the object does not exist; other failures propagate. */
export async function unlessGone<T>(read: Promise<T>, code: ErrorCode): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (isRingbackError(error) && error.code === code) return null;
    throw error;
  }
}
