export type { Agent, AgentWithOnline } from "./agents.js";
export { isAgentOnline } from "./agents.js";
export { MULTICA_PUBLIC_API_URL, resolveTrackerApiUrl, TRACKER_API_URL_ENV } from "./base-url.js";
export type { TrackerClient, TrackerClientOptions } from "./client.js";
export { createTrackerClient } from "./client.js";
export type { Comment, CommentAttachment } from "./comments.js";
export type { CommentWritten, IssueActivity, StatusChanged, TrackerActor } from "./issue-activity.js";
export { issueSearchQuery } from "./issue-search.js";
export type { Issue, IssuePriority, ProjectIssuesQuery } from "./issues.js";
export { ISSUE_LIST_LIMIT_MAX, UPDATED_ISSUE_PAGES_MAX } from "./issues.js";
export { mapLimit } from "./map-limit.js";
export type { Project, ProjectStatus } from "./projects.js";
export { isProjectOpen } from "./projects.js";
export type { QuickCreateInput, QuickCreateResult } from "./quick-create.js";
export type { WatchWorkspaceOptions, WorkspaceWatcher } from "./realtime.js";
export {
  CATCH_UP_OVERLAP_MS,
  WATCH_KEEPALIVE_INTERVAL_MS,
  WATCH_RECONNECT_INITIAL_MS,
  WATCH_RECONNECT_MAX_MS,
  WATCH_SILENCE_TIMEOUT_MS,
} from "./realtime.js";
export type { TaskFinished } from "./realtime-frames.js";
export type { AgentRuntime } from "./runtimes.js";
export { SEEN_TASKS_MAX } from "./seen-tasks.js";
export type { IssueStatus } from "./statuses.js";
export type { AgentTask, AgentTaskKind, AgentTaskStatus } from "./tasks.js";
export { AGENT_TASK_READS_IN_FLIGHT, FINISHED_TASK_STATUSES, isTaskFinished } from "./tasks.js";
export type { StatusMove } from "./timeline.js";
export { isTrackerError, TrackerError } from "./tracker-error.js";
export type { Log, Sleep } from "./transport.js";
export { TRACKER_REQUEST_TIMEOUT_MS } from "./transport.js";
export type { UploadedFile, UploadInput } from "./uploads.js";
export { TRACKER_UPLOAD_TIMEOUT_MS } from "./uploads.js";
export type { TrackerUser, Workspace } from "./workspaces.js";
