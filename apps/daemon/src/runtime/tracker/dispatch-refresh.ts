import { type DispatchRecord, isRingbackError } from "@ringback/protocol";
import type { AgentTask, Issue, TrackerClient } from "@ringback/tracker-client";
import type { Logger } from "../logger.js";
import { afterTaskRead, createdFromIssue, type TaskOutcome } from "./dispatch-transitions.js";
import { type IssueReads, type IssueToRead, issueKey, readIssues } from "./issue-reads.js";
import { settleLimit, TRACKER_READS_IN_FLIGHT } from "./map-limit.js";

export interface DispatchChange {
  before: DispatchRecord;
  after: DispatchRecord;
}

/**
 * One refresh of the given records from the tracker (spec: Dispatch record states), with as few calls as
 * the tracker allows and those concurrent:
 * 1. `creating` records: one task-list read per agent (the tracker has no single-task read), all agents at once;
 * 2. the issues of `created` records and of tasks that just got linked: a page per project with several of
 *    them, single reads for the rest;
 * 3. agent names only for assignees not already known, one list per workspace.
 * `failed` and `cancelled` records cost nothing. A read that fails leaves its records as they were.
 */
export async function refreshDispatches(
  client: TrackerClient,
  records: readonly DispatchRecord[],
  now: Date,
  log: Logger,
): Promise<DispatchChange[]> {
  const outcomes = await readTasks(client, records, now, log);
  const issuesToRead: IssueToRead[] = [];
  for (const outcome of outcomes.values()) {
    if (outcome.kind !== "issue") continue;
    const { workspaceId, projectId } = outcome.record;
    issuesToRead.push({ workspaceId, issueId: outcome.issueId, projectId });
  }
  for (const record of records) {
    if (record.state === "created" && record.issueId) {
      issuesToRead.push({
        workspaceId: record.workspaceId,
        issueId: record.issueId,
        projectId: record.projectId,
      });
    }
  }
  const issues = await readIssues(client, issuesToRead);
  logFailures(issues, log);
  const agentNames = await readAgentNames(client, records, issues);

  return records.map((record): DispatchChange => {
    const outcome = outcomes.get(record);
    if (outcome && outcome.kind !== "issue") return { before: record, after: outcome.record };
    const issueId =
      outcome?.kind === "issue" ? outcome.issueId : record.state === "created" ? record.issueId : null;
    if (!issueId) return { before: record, after: record };
    const key = issueKey(record.workspaceId, issueId);
    const issue = issues.found.get(key);
    if (issue) {
      const agentName = issue.assigneeId
        ? (agentNames.get(agentKey(record.workspaceId, issue.assigneeId)) ?? "")
        : "";
      return { before: record, after: createdFromIssue(record, issue, agentName, now) };
    }
    if (outcome && issues.gone.has(key)) {
      const after = {
        ...record,
        state: "failed" as const,
        error: "The issue the agent created was deleted.",
      };
      return { before: record, after: { ...after, updatedAt: now.toISOString() } };
    }
    return { before: record, after: record };
  });
}

/** Task outcomes of the `creating` records, by record; records whose agent could not be read are absent. */
async function readTasks(
  client: TrackerClient,
  records: readonly DispatchRecord[],
  now: Date,
  log: Logger,
): Promise<Map<DispatchRecord, TaskOutcome>> {
  const byAgent = new Map<string, DispatchRecord[]>();
  for (const record of records) {
    if (record.state !== "creating") continue;
    const key = agentKey(record.workspaceId, record.agentId ?? "");
    byAgent.set(key, [...(byAgent.get(key) ?? []), record]);
  }
  const groups = [...byAgent.values()];
  const lists = await settleLimit(groups, TRACKER_READS_IN_FLIGHT, async (group): Promise<AgentTask[]> => {
    const { workspaceId, agentId } = group[0] as DispatchRecord;
    if (!agentId) return [];
    try {
      return await client.listAgentTasks({ workspaceId, agentId });
    } catch (error) {
      // A removed agent took its tasks with it: those dispatches cannot become issues any more.
      if (isRingbackError(error) && error.code === "agent_not_found") return [];
      throw error;
    }
  });
  const outcomes = new Map<DispatchRecord, TaskOutcome>();
  lists.forEach((list, index) => {
    const group = groups[index] as DispatchRecord[];
    if (list.status === "rejected") {
      log(`tracker: could not refresh ${group.length} dispatch(es): ${describe(list.reason)}`);
      return;
    }
    for (const record of group) {
      const task = list.value.find((candidate) => candidate.id === record.taskId) ?? null;
      outcomes.set(record, afterTaskRead(record, task, now));
    }
  });
  return outcomes;
}

/** Names of the agents the issues are assigned to: from the records when known, else one list per workspace. */
async function readAgentNames(
  client: TrackerClient,
  records: readonly DispatchRecord[],
  issues: IssueReads,
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const record of records) {
    if (record.agentId && record.agentName)
      names.set(agentKey(record.workspaceId, record.agentId), record.agentName);
  }
  const workspacesToList = new Set<string>();
  for (const issue of issues.found.values()) {
    if (isAssignedToAgent(issue) && !names.has(agentKey(issue.workspaceId, issue.assigneeId as string))) {
      workspacesToList.add(issue.workspaceId);
    }
  }
  const lists = await settleLimit([...workspacesToList], TRACKER_READS_IN_FLIGHT, async (workspaceId) => ({
    workspaceId,
    agents: await client.listAgents({ workspaceId }),
  }));
  for (const list of lists) {
    if (list.status !== "fulfilled") continue;
    for (const agent of list.value.agents) names.set(agentKey(list.value.workspaceId, agent.id), agent.name);
  }
  return names;
}

function isAssignedToAgent(issue: Issue): boolean {
  return issue.assigneeType === "agent" && issue.assigneeId !== null;
}

function agentKey(workspaceId: string, agentId: string): string {
  return `${workspaceId}\n${agentId}`;
}

function logFailures(issues: IssueReads, log: Logger): void {
  const first = issues.failed.values().next();
  if (!first.done)
    log(`tracker: could not re-read ${issues.failed.size} dispatched issue(s): ${describe(first.value)}`);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
