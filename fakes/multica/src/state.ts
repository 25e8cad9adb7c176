import {
  type AgentCommentOptions,
  changeIssueStatus,
  type IssueActor,
  postAgentComment,
  type StatusChangeOptions,
} from "./agent-activity.js";
import type { CommentRecord, IssueRecord, TaskRecord } from "./records.js";
import {
  type CompleteQuickCreateOptions,
  cancelTask,
  completeQuickCreate,
  type FailTaskOptions,
  type FinishTaskOptions,
  failTask,
  finishTask,
} from "./task-lifecycle.js";
import { TrackerStore } from "./tracker-store.js";

/**
 * Everything the simulated tracker knows. Tests seed it with the `add*` methods (each returns the stored
 * record, which a test may also change in place) and drive agent work with the task methods, which broadcast
 * realtime events the way the tracker does (`task-lifecycle.ts`).
 */
export class FakeMulticaState extends TrackerStore {
  /** Posts the agent's report comment, completes the task and broadcasts `task:completed`. */
  finishTask(taskId: string, options?: FinishTaskOptions): ReturnType<typeof finishTask> {
    return finishTask(this, taskId, options);
  }

  /** Fails the task and broadcasts `task:failed` (with a queued retry when `retryPending`). */
  failTask(taskId: string, options?: FailTaskOptions): ReturnType<typeof failTask> {
    return failTask(this, taskId, options);
  }

  /** Cancels the task and broadcasts `task:cancelled`; a finished task is left as it is. */
  cancelTask(taskId: string): TaskRecord {
    return cancelTask(this, taskId);
  }

  /** An agent's comment while its task runs (`source_task_id` set), broadcast as `comment:created`. */
  postAgentComment(taskId: string, content: string, options?: AgentCommentOptions): CommentRecord {
    return postAgentComment(this, taskId, content, options);
  }

  /** Moves the issue to `status` as `actor` did, broadcasting `issue:updated` with `status_changed`. */
  changeIssueStatus(
    issueId: string,
    status: string,
    actor: IssueActor,
    options?: StatusChangeOptions,
  ): IssueRecord {
    return changeIssueStatus(this, issueId, status, actor, options);
  }

  /** Creates the issue a quick-create task's agent would write, links it and completes the task. */
  completeQuickCreate(
    taskId: string,
    options: CompleteQuickCreateOptions,
  ): ReturnType<typeof completeQuickCreate> {
    return completeQuickCreate(this, taskId, options);
  }
}
