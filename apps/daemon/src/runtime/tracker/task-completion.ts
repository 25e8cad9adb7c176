import { setTimeout as wait } from "node:timers/promises";
import type { Report } from "@ringback/protocol";
import type { TaskFinished, TrackerClient } from "@ringback/tracker-client";
import type { Logger } from "../logger.js";
import type { HookTurns, ReportQueue } from "./hook-turns.js";
import type { QuestionCalls } from "./question-calls.js";
import { readTaskReport, type WorkspaceNames } from "./task-report.js";
import { trackerEventId } from "./tracker-event-id.js";
import type { TaskFinishedHandler } from "./watcher-manager.js";

/**
 * Waits before reading a finished task again when the tracker failed even after the client's own read
 * retries. After the last one the watcher's next catch-up (after a reconnect) tries again.
 */
const TASK_REPORT_RETRY_DELAYS_MS = [10_000, 60_000, 300_000] as const;

export interface TaskCompletionOptions {
  /** The outbox itself: tracker reports never go through the hook-report check. */
  outbox: ReportQueue;
  hookTurns: HookTurns;
  /** A question among the task's comments rings as one, even when its realtime event was missed. */
  questionCalls: QuestionCalls;
  log: Logger;
  now(): Date;
  /** Aborted when the daemon stops: pending retries end. */
  signal: AbortSignal;
  /** Told of a task the tracker says failed, with its report, once the report is queued. */
  onTaskFailed?(report: Report): void;
}

/**
 * A finished tracker task becomes one report in the outbox (spec: Outbox report lifecycle, Accepted), under
 * an event id derived from the task id: one task, one call, however often it is seen. A task whose report is a
 * question to the user (it mentions them) rings as that question only, not a second time as finished.
 */
export function createTaskCompletionHandler(options: TaskCompletionOptions): TaskFinishedHandler {
  const { outbox, hookTurns, questionCalls, log, now, signal } = options;
  const workspaceNames: WorkspaceNames = new Map();
  return async (client: TrackerClient, event: TaskFinished) => {
    const read = await withRetries(() => readTaskReport(client, event, workspaceNames, now()), {
      signal,
      onRetry: (error, delayMs) =>
        log(`tracker: could not read task ${event.taskId} (${describe(error)}); retry in ${delayMs} ms`),
    });
    if (!read) {
      log(
        `tracker: task ${event.taskId} finished on issue ${event.issueId}, which no longer exists; no call`,
      );
      return;
    }
    const issue = read.report.tracker?.issueIdentifier ?? event.issueId;
    const questions = await questionCalls.ringQuestionsOf(client, event.workspaceId, read.taskComments);
    if (read.reportCommentId !== null && questions.has(read.reportCommentId)) {
      log(
        `tracker: task ${event.taskId} (${issue}) ended on a question to the user, rung as such; no finished call`,
      );
      return;
    }
    const hookEventId = hookTurns.hookReportOf(read.turn);
    hookTurns.rememberTrackerTurn(read.turn);
    if (hookEventId) {
      log(
        `tracker: task ${event.taskId} (${issue}) was already reported by the hook as ${hookEventId}; no second call`,
      );
      return;
    }
    const result = await outbox.enqueue(read.report);
    if (event.status === "failed") options.onTaskFailed?.(read.report);
    log(
      `tracker: task ${event.taskId} (${issue}, ${event.status}) ${result === "accepted" ? "queued" : "already queued"} as ${trackerEventId(event.taskId)}`,
    );
  };
}

async function withRetries<T>(
  read: () => Promise<T>,
  options: { signal: AbortSignal; onRetry(error: unknown, delayMs: number): void },
): Promise<T> {
  for (const delayMs of TASK_REPORT_RETRY_DELAYS_MS) {
    try {
      return await read();
    } catch (error) {
      if (!isRetryable(error) || options.signal.aborted) throw error;
      options.onRetry(error, delayMs);
      await wait(delayMs, undefined, { signal: options.signal });
    }
  }
  return read();
}

/** An unreachable or failing tracker; a refused token or a missing object will not change by waiting. */
function isRetryable(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === "tracker_unavailable";
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
