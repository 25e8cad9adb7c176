import { newId, newPersonalToken } from "./ids.js";
import type {
  ActivityRecord,
  AgentRecord,
  AttachmentRecord,
  CommentRecord,
  IssueRecord,
  IssueStatusRecord,
  ProjectRecord,
  QuickCreateRequestRecord,
  RealtimeFrame,
  RuntimeRecord,
  StatusCategory,
  TaskRecord,
  UserRecord,
  WorkspaceRecord,
} from "./records.js";
import { STATUS_CATEGORIES } from "./records.js";
import { activityTimestamp, secondsTimestamp } from "./timestamps.js";

export type EventListener = (workspaceId: string, frame: RealtimeFrame) => void;

const BUILT_IN_STATUS_NAMES: Record<StatusCategory, string> = {
  backlog: "Backlog",
  todo: "Todo",
  in_progress: "In Progress",
  in_review: "In Review",
  done: "Done",
  blocked: "Blocked",
  cancelled: "Cancelled",
};

/** A new workspace's prefix: the first four alphanumeric characters of its slug, uppercased. */
function prefixFromSlug(slug: string): string {
  return (
    slug
      .replace(/[^a-z0-9]/gi, "")
      .slice(0, 4)
      .toUpperCase() || "WS"
  );
}

function slugFromName(name: string): string {
  return (
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "") || "workspace"
  );
}

/**
 * Everything the simulated tracker knows, and the primitives that read and change it: the `add*` methods (each
 * returns the stored record, which a test may also change in place) announce nothing; `emit` broadcasts a realtime
 * event. `task-lifecycle.ts` drives agent work on top of it, and `FakeMulticaState` (state.ts) offers both to tests.
 */
export class TrackerStore {
  readonly users = new Map<string, UserRecord>();
  readonly workspaces = new Map<string, WorkspaceRecord>();
  /** workspace id -> member user ids */
  readonly members = new Map<string, Set<string>>();
  readonly projects = new Map<string, ProjectRecord>();
  readonly runtimes = new Map<string, RuntimeRecord>();
  readonly agents = new Map<string, AgentRecord>();
  readonly statuses = new Map<string, IssueStatusRecord>();
  readonly issues = new Map<string, IssueRecord>();
  readonly comments = new Map<string, CommentRecord>();
  readonly tasks = new Map<string, TaskRecord>();
  readonly attachments = new Map<string, AttachmentRecord>();
  /** Bytes of every uploaded file, by attachment (or user-scoped upload) id. */
  readonly files = new Map<string, { bytes: Uint8Array; contentType: string; filename: string }>();
  readonly quickCreateRequests = new Map<string, QuickCreateRequestRecord>();
  /** The issues' activity log (`activity_log`), by id: see `addActivity`. */
  readonly activities = new Map<string, ActivityRecord>();
  /** Comments and activities in the order they were written (the tracker's ids are time-ordered UUIDv7s). */
  private readonly writeOrder = new Map<string, number>();
  private readonly issueCounters = new Map<string, number>();
  private readonly listeners = new Set<EventListener>();

  /** Called for every realtime event; the realtime server broadcasts it to the workspace's sockets. */
  onEvent(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(workspaceId: string, frame: RealtimeFrame): void {
    for (const listener of this.listeners) listener(workspaceId, frame);
  }

  addUser(input: Partial<UserRecord> = {}): UserRecord {
    const id = input.id ?? newId();
    const user: UserRecord = {
      id,
      name: input.name ?? "Test User",
      email: input.email ?? `${id.slice(0, 8)}@example.test`,
      token: input.token ?? newPersonalToken(),
    };
    this.users.set(user.id, user);
    return user;
  }

  userByToken(token: string): UserRecord | undefined {
    for (const user of this.users.values()) if (user.token === token) return user;
    return undefined;
  }

  /** Adds a workspace with the seven built-in statuses; `members` are user ids. */
  addWorkspace(input: Partial<WorkspaceRecord> & { name: string; members?: string[] }): WorkspaceRecord {
    const now = secondsTimestamp();
    const slug = input.slug ?? slugFromName(input.name);
    const workspace: WorkspaceRecord = {
      id: input.id ?? newId(),
      name: input.name,
      slug,
      description: input.description ?? null,
      context: input.context ?? null,
      settings: input.settings ?? {},
      repos: input.repos ?? [],
      issue_prefix: input.issue_prefix ?? prefixFromSlug(slug),
      avatar_url: input.avatar_url ?? null,
      created_at: input.created_at ?? now,
      updated_at: input.updated_at ?? now,
    };
    this.workspaces.set(workspace.id, workspace);
    this.members.set(workspace.id, new Set(input.members ?? []));
    this.issueCounters.set(workspace.id, 0);
    for (const category of STATUS_CATEGORIES) {
      this.addStatus(workspace.id, {
        key: category,
        name: BUILT_IN_STATUS_NAMES[category],
        category,
        is_system: true,
      });
    }
    return workspace;
  }

  addMember(workspaceId: string, userId: string): void {
    this.requireWorkspace(workspaceId);
    this.members.get(workspaceId)?.add(userId);
  }

  isMember(workspaceId: string, userId: string): boolean {
    return this.members.get(workspaceId)?.has(userId) ?? false;
  }

  addProject(workspaceId: string, input: Partial<ProjectRecord> & { title: string }): ProjectRecord {
    this.requireWorkspace(workspaceId);
    const now = secondsTimestamp();
    const project: ProjectRecord = {
      id: input.id ?? newId(),
      workspace_id: workspaceId,
      title: input.title,
      description: input.description ?? null,
      icon: input.icon ?? null,
      status: input.status ?? "planned",
      priority: input.priority ?? "none",
      lead_type: input.lead_type ?? null,
      lead_id: input.lead_id ?? null,
      start_date: input.start_date ?? null,
      due_date: input.due_date ?? null,
      created_at: input.created_at ?? now,
      updated_at: input.updated_at ?? now,
    };
    this.projects.set(project.id, project);
    return project;
  }

  addRuntime(workspaceId: string, input: Partial<RuntimeRecord> = {}): RuntimeRecord {
    this.requireWorkspace(workspaceId);
    const now = secondsTimestamp();
    const runtime: RuntimeRecord = {
      id: input.id ?? newId(),
      workspace_id: workspaceId,
      daemon_id: input.daemon_id ?? null,
      name: input.name ?? "laptop",
      custom_name: input.custom_name ?? null,
      runtime_mode: input.runtime_mode ?? "local",
      provider: input.provider ?? "claude",
      launch_header: input.launch_header ?? "",
      status: input.status ?? "online",
      device_info: input.device_info ?? "",
      metadata: input.metadata ?? { cli_version: "0.5.0" },
      owner_id: input.owner_id ?? null,
      visibility: input.visibility ?? "public",
      profile_id: input.profile_id ?? null,
      last_seen_at: input.last_seen_at ?? now,
      created_at: input.created_at ?? now,
      updated_at: input.updated_at ?? now,
    };
    this.runtimes.set(runtime.id, runtime);
    return runtime;
  }

  addAgent(workspaceId: string, input: Partial<AgentRecord> & { name: string }): AgentRecord {
    this.requireWorkspace(workspaceId);
    const now = secondsTimestamp();
    const agent: AgentRecord = {
      id: input.id ?? newId(),
      workspace_id: workspaceId,
      runtime_id: input.runtime_id ?? "",
      name: input.name,
      description: input.description ?? "",
      instructions: input.instructions ?? "",
      avatar_url: input.avatar_url ?? null,
      runtime_mode: input.runtime_mode ?? "local",
      visibility: input.visibility ?? "workspace",
      permission_mode: input.permission_mode ?? "public_to",
      status: input.status ?? "idle",
      max_concurrent_tasks: input.max_concurrent_tasks ?? 1,
      model: input.model ?? "",
      owner_id: input.owner_id ?? null,
      created_at: input.created_at ?? now,
      updated_at: input.updated_at ?? now,
      archived_at: input.archived_at ?? null,
      archived_by: input.archived_by ?? null,
    };
    this.agents.set(agent.id, agent);
    return agent;
  }

  addStatus(
    workspaceId: string,
    input: Partial<IssueStatusRecord> & { key: string; name: string; category: StatusCategory },
  ): IssueStatusRecord {
    this.requireWorkspace(workspaceId);
    const now = secondsTimestamp();
    const status: IssueStatusRecord = {
      id: input.id ?? newId(),
      workspace_id: workspaceId,
      key: input.key,
      name: input.name,
      description: input.description ?? "",
      category: input.category,
      color: input.color ?? "#888888",
      is_system: input.is_system ?? false,
      position: input.position ?? (input.is_system ? 0 : 1),
      archived_at: input.archived_at ?? null,
      created_at: input.created_at ?? now,
      updated_at: input.updated_at ?? now,
    };
    this.statuses.set(status.id, status);
    return status;
  }

  addIssue(workspaceId: string, input: Partial<IssueRecord> & { title: string }): IssueRecord {
    this.requireWorkspace(workspaceId);
    const now = secondsTimestamp();
    const number = (this.issueCounters.get(workspaceId) ?? 0) + 1;
    this.issueCounters.set(workspaceId, number);
    const issue: IssueRecord = {
      id: input.id ?? newId(),
      workspace_id: workspaceId,
      number,
      title: input.title,
      description: input.description ?? null,
      status: input.status ?? "todo",
      priority: input.priority ?? "none",
      assignee_type: input.assignee_type ?? null,
      assignee_id: input.assignee_id ?? null,
      creator_type: input.creator_type ?? "member",
      creator_id: input.creator_id ?? this.firstMember(workspaceId) ?? newId(),
      parent_issue_id: input.parent_issue_id ?? null,
      project_id: input.project_id ?? null,
      position: input.position ?? number,
      start_date: input.start_date ?? null,
      due_date: input.due_date ?? null,
      created_at: input.created_at ?? now,
      updated_at: input.updated_at ?? now,
      revision: input.revision ?? 1,
      last_activity_at: input.last_activity_at === undefined ? activityTimestamp() : input.last_activity_at,
      metadata: input.metadata ?? {},
      properties: input.properties ?? {},
    };
    this.issues.set(issue.id, issue);
    return issue;
  }

  addComment(issueId: string, input: Partial<CommentRecord> & { content: string }): CommentRecord {
    const issue = this.requireIssue(issueId);
    const now = secondsTimestamp();
    const comment: CommentRecord = {
      id: input.id ?? newId(),
      issue_id: issueId,
      author_type: input.author_type ?? "member",
      author_id: input.author_id ?? this.firstMember(issue.workspace_id) ?? newId(),
      content: input.content,
      type: input.type ?? "comment",
      parent_id: input.parent_id ?? null,
      created_at: input.created_at ?? now,
      updated_at: input.updated_at ?? now,
      revision: input.revision ?? 1,
      source_task_id: input.source_task_id ?? null,
      attachments: input.attachments ?? [],
    };
    this.comments.set(comment.id, comment);
    this.writeOrder.set(comment.id, this.writeOrder.size + 1);
    this.touchIssue(issue);
    return comment;
  }

  /** Records a change to an issue in its activity log, as the tracker does after an update; nothing is broadcast. */
  addActivity(issueId: string, input: Partial<ActivityRecord> & { action: string }): ActivityRecord {
    const issue = this.requireIssue(issueId);
    const activity: ActivityRecord = {
      id: input.id ?? newId(),
      workspace_id: issue.workspace_id,
      issue_id: issue.id,
      actor_type: input.actor_type ?? "",
      actor_id: input.actor_id ?? "",
      action: input.action,
      details: input.details ?? {},
      created_at: input.created_at ?? secondsTimestamp(),
    };
    this.activities.set(activity.id, activity);
    this.writeOrder.set(activity.id, this.writeOrder.size + 1);
    return activity;
  }

  /**
   * Where a comment or an activity comes in its issue's timeline among those written in the same second: the
   * tracker orders by `(created_at, id)` and its ids are time-ordered.
   */
  writeOrderOf(id: string): number {
    return this.writeOrder.get(id) ?? 0;
  }

  /** Adds an agent task without announcing it; the workspace and runtime come from the agent. */
  addTask(input: Partial<TaskRecord> & { agent_id: string }): TaskRecord {
    const agent = this.requireAgent(input.agent_id);
    const now = secondsTimestamp();
    const task: TaskRecord = {
      id: input.id ?? newId(),
      agent_id: agent.id,
      runtime_id: input.runtime_id ?? agent.runtime_id,
      issue_id: input.issue_id ?? "",
      workspace_id: agent.workspace_id,
      status: input.status ?? "running",
      priority: input.priority ?? 0,
      dispatched_at: input.dispatched_at ?? null,
      started_at: input.started_at ?? (input.status === "queued" ? null : now),
      completed_at: input.completed_at ?? null,
      result: input.result ?? null,
      error: input.error ?? null,
      attempt: input.attempt ?? 1,
      max_attempts: input.max_attempts ?? 3,
      created_at: input.created_at ?? now,
      trigger_comment_id: input.trigger_comment_id ?? null,
      coalesced_comment_ids: input.coalesced_comment_ids ?? [],
      delivered_comment_ids: input.delivered_comment_ids ?? [],
      trigger_summary: input.trigger_summary ?? null,
      chat_session_id: input.chat_session_id ?? "",
      autopilot_run_id: input.autopilot_run_id ?? "",
      kind: input.kind ?? (input.issue_id ? "direct" : "quick_create"),
    };
    if (input.failure_reason !== undefined) task.failure_reason = input.failure_reason;
    if (input.parent_task_id !== undefined) task.parent_task_id = input.parent_task_id;
    this.tasks.set(task.id, task);
    return task;
  }

  /** Bumps an issue's activity the way comments and semantic edits do. */
  touchIssue(issue: IssueRecord): void {
    issue.last_activity_at = activityTimestamp();
    issue.updated_at = secondsTimestamp();
    issue.revision += 1;
  }

  /** The identifier is computed at read time from the current prefix, as the tracker does. */
  identifierOf(issue: IssueRecord): string {
    return `${this.prefixOf(issue.workspace_id)}-${issue.number}`;
  }

  prefixOf(workspaceId: string): string {
    const workspace = this.requireWorkspace(workspaceId);
    if (workspace.issue_prefix !== "") return workspace.issue_prefix;
    // Legacy workspaces without a stored prefix: first three letters of the name, or WS.
    return (
      workspace.name
        .replace(/[^a-z]/gi, "")
        .slice(0, 3)
        .toUpperCase() || "WS"
    );
  }

  statusCategoryOf(workspaceId: string, key: string): StatusCategory | undefined {
    for (const status of this.statuses.values()) {
      if (status.workspace_id === workspaceId && status.key === key) return status.category;
    }
    return undefined;
  }

  /** Finds an issue of the workspace by UUID or by `PREFIX-N` (case-insensitive, current prefix only). */
  findIssue(workspaceId: string, idOrIdentifier: string): IssueRecord | undefined {
    const byId = this.issues.get(idOrIdentifier);
    if (byId) return byId.workspace_id === workspaceId ? byId : undefined;
    const match = /^([a-z0-9]+)-(\d+)$/i.exec(idOrIdentifier);
    if (!match || match[1]?.toUpperCase() !== this.prefixOf(workspaceId)) return undefined;
    const number = Number(match[2]);
    for (const issue of this.issues.values()) {
      if (issue.workspace_id === workspaceId && issue.number === number) return issue;
    }
    return undefined;
  }

  requireWorkspace(id: string): WorkspaceRecord {
    const workspace = this.workspaces.get(id);
    if (!workspace) throw new Error(`fake-multica: no workspace ${id}`);
    return workspace;
  }

  requireIssue(id: string): IssueRecord {
    const issue = this.issues.get(id);
    if (!issue) throw new Error(`fake-multica: no issue ${id}`);
    return issue;
  }

  requireAgent(id: string): AgentRecord {
    const agent = this.agents.get(id);
    if (!agent) throw new Error(`fake-multica: no agent ${id}`);
    return agent;
  }

  requireTask(id: string): TaskRecord {
    const task = this.tasks.get(id);
    if (!task) throw new Error(`fake-multica: no task ${id}`);
    return task;
  }

  private firstMember(workspaceId: string): string | undefined {
    return this.members.get(workspaceId)?.values().next().value;
  }
}
