import type { AgentRecord, CommentRecord, IssueRecord, ProjectRecord } from "./records.js";
import type { TrackerStore } from "./tracker-store.js";

/** `IssueResponse`: the stored record plus the fields the tracker computes at read time. */
export function issueJson(state: TrackerStore, issue: IssueRecord): Record<string, unknown> {
  const json: Record<string, unknown> = {
    ...issue,
    identifier: state.identifierOf(issue),
    labels: [],
    reactions: [],
    attachments: [...state.attachments.values()].filter((attachment) => attachment.issue_id === issue.id),
  };
  const category = state.statusCategoryOf(issue.workspace_id, issue.status);
  if (category !== undefined) json.status_category = category;
  return json;
}

/** `AgentResponse`: `runtime_bound` is false exactly when `runtime_id` is empty. */
export function agentJson(agent: AgentRecord): Record<string, unknown> {
  return {
    ...agent,
    runtime_bound: agent.runtime_id !== "",
    runtime_config: {},
    custom_args: [],
    mcp_config: null,
    has_custom_env: false,
    custom_env_key_count: 0,
    invocation_targets: [],
    thinking_level: "",
    service_tier: "",
    skills: [],
    disabled_runtime_skills: [],
  };
}

/** `ProjectResponse` with its counts; `done_count` counts done and cancelled issues. */
export function projectJson(state: TrackerStore, project: ProjectRecord): Record<string, unknown> {
  let issueCount = 0;
  let doneCount = 0;
  for (const issue of state.issues.values()) {
    if (issue.project_id !== project.id) continue;
    issueCount += 1;
    const category = state.statusCategoryOf(issue.workspace_id, issue.status);
    if (category === "done" || category === "cancelled") doneCount += 1;
  }
  return { ...project, issue_count: issueCount, done_count: doneCount, resource_count: 0 };
}

/** `comment:created` payload: `{comment, issue_title, issue_status, issue_revision, issue_assignee_*}`. */
export function commentCreatedPayload(issue: IssueRecord, comment: CommentRecord): Record<string, unknown> {
  return {
    comment,
    issue_title: issue.title,
    issue_status: issue.status,
    issue_revision: issue.revision,
    issue_assignee_type: issue.assignee_type,
    issue_assignee_id: issue.assignee_id,
  };
}
