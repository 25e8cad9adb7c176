/**
 * The simulator stores every object in the tracker's own wire shape (snake_case, as in
 * shared/reference/multica-api.md), so a route answers with the record itself and a test reads the same
 * fields the tracker would send.
 */

export interface UserRecord {
  id: string;
  name: string;
  email: string;
  /** The personal access token (`mul_` + 40 hex) this user authenticates with. */
  token: string;
}

export interface WorkspaceRecord {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  context: string | null;
  settings: Record<string, unknown>;
  repos: { url: string; description?: string }[];
  issue_prefix: string;
  avatar_url: string | null;
  created_at: string;
  updated_at: string;
}

export type ProjectStatus = "planned" | "in_progress" | "paused" | "completed" | "cancelled";

export interface ProjectRecord {
  id: string;
  workspace_id: string;
  title: string;
  description: string | null;
  icon: string | null;
  status: ProjectStatus;
  priority: string;
  lead_type: string | null;
  lead_id: string | null;
  start_date: string | null;
  due_date: string | null;
  created_at: string;
  updated_at: string;
}

export interface RuntimeRecord {
  id: string;
  workspace_id: string;
  daemon_id: string | null;
  name: string;
  custom_name: string | null;
  runtime_mode: "local" | "cloud";
  provider: string;
  launch_header: string;
  status: "online" | "offline";
  device_info: string;
  metadata: Record<string, unknown>;
  owner_id: string | null;
  visibility: "private" | "public";
  profile_id: string | null;
  last_seen_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface AgentRecord {
  id: string;
  workspace_id: string;
  /** `""` when the agent has no runtime. */
  runtime_id: string;
  name: string;
  description: string;
  instructions: string;
  avatar_url: string | null;
  runtime_mode: "local" | "cloud";
  visibility: string;
  permission_mode: "private" | "public_to";
  status: "idle" | "working" | "blocked" | "error" | "offline";
  max_concurrent_tasks: number;
  model: string;
  owner_id: string | null;
  created_at: string;
  updated_at: string;
  archived_at: string | null;
  archived_by: string | null;
}

export type StatusCategory =
  | "backlog"
  | "todo"
  | "in_progress"
  | "in_review"
  | "done"
  | "blocked"
  | "cancelled";

/** Category ranks of the tracker's board order (historical order, not lifecycle order). */
export const STATUS_CATEGORIES: readonly StatusCategory[] = [
  "backlog",
  "todo",
  "in_progress",
  "in_review",
  "done",
  "blocked",
  "cancelled",
];

export interface IssueStatusRecord {
  id: string;
  workspace_id: string;
  key: string;
  name: string;
  description: string;
  category: StatusCategory;
  color: string;
  is_system: boolean;
  position: number;
  archived_at: string | null;
  created_at: string;
  updated_at: string;
}

export type Priority = "urgent" | "high" | "medium" | "low" | "none";

export interface IssueRecord {
  id: string;
  workspace_id: string;
  number: number;
  title: string;
  description: string | null;
  /** A status key (built-in or custom). */
  status: string;
  priority: Priority;
  assignee_type: "member" | "agent" | "squad" | null;
  assignee_id: string | null;
  creator_type: "member" | "agent";
  creator_id: string;
  parent_issue_id: string | null;
  project_id: string | null;
  position: number;
  start_date: string | null;
  due_date: string | null;
  created_at: string;
  updated_at: string;
  revision: number;
  last_activity_at: string | null;
  metadata: Record<string, unknown>;
  properties: Record<string, unknown>;
}

export interface CommentRecord {
  id: string;
  issue_id: string;
  author_type: "member" | "agent";
  author_id: string;
  content: string;
  type: "comment" | "progress_update" | "status_change" | "system";
  parent_id: string | null;
  created_at: string;
  updated_at: string;
  revision: number;
  source_task_id: string | null;
  attachments: AttachmentRecord[];
}

/**
 * An `activity_log` row: one change to an issue and who made it, as the tracker records it after an `issue:updated`
 * (the `activity` entries of `GET /api/issues/{id}/timeline`). `actor_type` is `""` for a change nobody is named for.
 */
export interface ActivityRecord {
  id: string;
  workspace_id: string;
  issue_id: string;
  actor_type: "member" | "agent" | "system" | "";
  actor_id: string;
  /** `created`, `status_changed` (details `{from, to}`), `priority_changed`, `assignee_changed`, ... */
  action: string;
  details: Record<string, unknown>;
  created_at: string;
}

export type TaskStatus =
  | "queued"
  | "dispatched"
  | "running"
  | "waiting_local_directory"
  | "deferred"
  | "completed"
  | "failed"
  | "cancelled";

export const TERMINAL_TASK_STATUSES: readonly TaskStatus[] = ["completed", "failed", "cancelled"];

export type TaskKind = "comment" | "direct" | "quick_create" | "chat" | "autopilot";

export interface TaskRecord {
  id: string;
  agent_id: string;
  runtime_id: string;
  /** `""` when not linked to an issue (a quick-create task until the issue exists). */
  issue_id: string;
  workspace_id: string;
  status: TaskStatus;
  priority: number;
  dispatched_at: string | null;
  started_at: string | null;
  completed_at: string | null;
  result: Record<string, unknown> | null;
  error: string | null;
  failure_reason?: string;
  attempt: number;
  max_attempts: number;
  parent_task_id?: string;
  created_at: string;
  trigger_comment_id: string | null;
  coalesced_comment_ids: string[];
  delivered_comment_ids: string[];
  trigger_summary: string | null;
  chat_session_id: string;
  autopilot_run_id: string;
  kind: TaskKind;
}

export interface AttachmentRecord {
  id: string;
  workspace_id: string;
  issue_id: string | null;
  comment_id: string | null;
  chat_session_id: string | null;
  chat_message_id: string | null;
  uploader_type: "member" | "agent";
  uploader_id: string;
  filename: string;
  url: string;
  download_url: string;
  markdown_url: string;
  content_type: string;
  size_bytes: number;
  created_at: string;
}

/** What a quick-create call asked for, kept so a test can check it and complete the task. */
export interface QuickCreateRequestRecord {
  task_id: string;
  requester_id: string;
  prompt: string;
  agent_id: string;
  project_id: string | null;
  priority: string | null;
  due_date: string | null;
  attachment_ids: string[];
}

/** A realtime frame: `{type, payload, actor_id, actor_type}`. */
export interface RealtimeFrame {
  type: string;
  payload: Record<string, unknown>;
  actor_id: string;
  actor_type: "member" | "agent" | "system";
}
