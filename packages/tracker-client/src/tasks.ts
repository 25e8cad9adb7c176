import { z } from "zod";
import type { AgentOperations } from "./agents.js";
import { nullableString, optionalId } from "./json-fields.js";
import { mapLimit } from "./map-limit.js";
import { isTrackerError } from "./tracker-error.js";
import type { Transport } from "./transport.js";

/** Agents whose task lists are read at the same time when a whole workspace's tasks are needed. */
export const AGENT_TASK_READS_IN_FLIGHT = 4;

export type AgentTaskStatus =
  | "queued"
  | "dispatched"
  | "running"
  | "waiting_local_directory"
  | "deferred"
  | "completed"
  | "failed"
  | "cancelled"
  | (string & {});

/** `comment`, `direct` (assignment), `quick_create`, `chat` or `autopilot`. */
export type AgentTaskKind = "comment" | "direct" | "quick_create" | "chat" | "autopilot" | (string & {});

export const FINISHED_TASK_STATUSES: readonly AgentTaskStatus[] = ["completed", "failed", "cancelled"];

export interface AgentTask {
  id: string;
  agentId: string;
  runtimeId: string | null;
  /** Null when not linked to an issue; a quick-create task is linked only once its issue exists. */
  issueId: string | null;
  workspaceId: string;
  status: AgentTaskStatus;
  kind: AgentTaskKind;
  createdAt: string;
  startedAt: string | null;
  /** Set on every finished state (completed, failed, cancelled). */
  completedAt: string | null;
  /** `result.output`: the agent's final text. */
  output: string | null;
  error: string | null;
  failureReason: string | null;
  attempt: number;
  /** Set on a retry: the failed task it retries. */
  parentTaskId: string | null;
  triggerCommentId: string | null;
}

const AgentTaskJson = z
  .object({
    id: z.string(),
    agent_id: z.string(),
    runtime_id: optionalId,
    issue_id: optionalId,
    workspace_id: z.string(),
    status: z.string(),
    kind: z.string().nullish(),
    created_at: z.string(),
    started_at: nullableString,
    completed_at: nullableString,
    result: z.unknown().nullish(),
    error: nullableString,
    failure_reason: optionalId,
    attempt: z.number().nullish(),
    parent_task_id: optionalId,
    trigger_comment_id: optionalId,
  })
  .transform((json): AgentTask => {
    const output = (json.result as { output?: unknown } | null | undefined)?.output;
    return {
      id: json.id,
      agentId: json.agent_id,
      runtimeId: json.runtime_id,
      issueId: json.issue_id,
      workspaceId: json.workspace_id,
      status: json.status,
      kind: json.kind ?? "direct",
      createdAt: json.created_at,
      startedAt: json.started_at,
      completedAt: json.completed_at,
      output: typeof output === "string" ? output : null,
      error: json.error,
      failureReason: json.failure_reason,
      attempt: json.attempt ?? 1,
      parentTaskId: json.parent_task_id,
      triggerCommentId: json.trigger_comment_id,
    };
  });

export function isTaskFinished(task: AgentTask): boolean {
  return FINISHED_TASK_STATUSES.includes(task.status);
}

export function taskOperations(transport: Transport, agents: AgentOperations) {
  const listAgentTasks = (input: { workspaceId: string; agentId: string }) =>
    readAgentTasks(transport, input);
  const listWorkspaceTasks = (input: { workspaceId: string }) => readWorkspaceTasks(transport, agents, input);
  return {
    /** Every task of the agent, newest first. */
    listAgentTasks,
    /**
     * Every task of every agent of the workspace (the tracker has no workspace-wide task list and no
     * time filter; an agent removed meanwhile is skipped).
     */
    listWorkspaceTasks,

    /**
     * One task, read from its agent's task list (the tracker has no single-task read for a personal
     * token); null when the agent has no such task.
     */
    async getAgentTask(input: {
      workspaceId: string;
      agentId: string;
      taskId: string;
    }): Promise<AgentTask | null> {
      const tasks = await listAgentTasks(input);
      return tasks.find((task) => task.id === input.taskId) ?? null;
    },

    /** Every task that ran on the issue, newest first; unknown issue: `issue_not_found`. */
    listIssueTasks(input: { workspaceId: string; issueId: string }): Promise<AgentTask[]> {
      return transport.read(
        {
          method: "GET",
          path: `/api/issues/${encodeURIComponent(input.issueId)}/task-runs`,
          workspaceId: input.workspaceId,
          errors: { notFound: "issue_not_found" },
        },
        z.array(AgentTaskJson),
      );
    },

    /** The workspace's tasks that finished (completed, failed or cancelled) at or after `since`, oldest first. */
    async listFinishedTasks(input: { workspaceId: string; since: Date | string }): Promise<AgentTask[]> {
      return finishedSince(await listWorkspaceTasks(input), input.since);
    },

    /**
     * Cancels a task (a write: sent once). Cancelling a finished task returns it unchanged; a task not
     * in the workspace: `not_found`.
     */
    cancelTask(input: { workspaceId: string; taskId: string }): Promise<AgentTask> {
      return transport.write(
        {
          method: "POST",
          path: `/api/tasks/${encodeURIComponent(input.taskId)}/cancel`,
          workspaceId: input.workspaceId,
          errors: { notFound: "not_found" },
        },
        AgentTaskJson,
      );
    },
  };
}

function readAgentTasks(
  transport: Transport,
  input: { workspaceId: string; agentId: string },
): Promise<AgentTask[]> {
  return transport.read(
    {
      method: "GET",
      path: `/api/agents/${encodeURIComponent(input.agentId)}/tasks`,
      workspaceId: input.workspaceId,
      // A private agent the user may not see answers 403: for this user it does not exist.
      errors: {
        notFound: "agent_not_found",
        classify: (failure) => (failure.status === 403 ? "agent_not_found" : undefined),
      },
    },
    z.array(AgentTaskJson),
  );
}

async function readWorkspaceTasks(
  transport: Transport,
  agents: AgentOperations,
  input: { workspaceId: string },
): Promise<AgentTask[]> {
  const agentList = await agents.listAgents(input);
  const lists = await mapLimit(agentList, AGENT_TASK_READS_IN_FLIGHT, async (agent) => {
    try {
      return await readAgentTasks(transport, { workspaceId: input.workspaceId, agentId: agent.id });
    } catch (error) {
      if (isTrackerError(error) && error.code === "agent_not_found") return [];
      throw error;
    }
  });
  return lists.flat();
}

function finishedSince(tasks: readonly AgentTask[], since: Date | string): AgentTask[] {
  const sinceMs = new Date(since).getTime();
  return tasks
    .filter(
      (task) => isTaskFinished(task) && task.completedAt !== null && Date.parse(task.completedAt) >= sinceMs,
    )
    .sort((a, b) => Date.parse(a.completedAt ?? "") - Date.parse(b.completedAt ?? ""));
}
