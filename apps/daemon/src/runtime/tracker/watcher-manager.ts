import type { TrackerWorkspaceStatus } from "@ringback/protocol";
import type { TaskFinished, TrackerClient, WorkspaceWatcher } from "@ringback/tracker-client";
import type { Logger } from "../logger.js";
import type { IssueActivityHandler } from "./question-calls.js";
import { RESUME_POINTS_SAVE_INTERVAL_MS, type ResumePoints } from "./resume-points.js";
import type { TrackerAccess } from "./tracker-access.js";

/** What happens with a finished task; a rejection makes the watcher report it again at its next catch-up. */
export type TaskFinishedHandler = (client: TrackerClient, event: TaskFinished) => Promise<void>;

/**
 * What else a workspace's catch-up finds, made since `since` while realtime did not show it; a rejection fails the
 * catch-up (the watcher reconnects and catches up again).
 */
export type CatchUpHandler = (client: TrackerClient, workspaceId: string, since: Date) => Promise<void>;

interface RunningWatcher {
  token: string;
  watcher: WorkspaceWatcher;
}

/**
 * One realtime watcher per watched workspace (tracker-client `watchWorkspace`), kept in line with
 * daemon.json: `reconnect()` after every settings change starts the missing ones and closes the others
 * (all of them when the token changed). Where each would resume is noted every RESUME_POINTS_SAVE_INTERVAL_MS and when
 * it closes; the watchers of the daemon's start resume from there (resume-points.ts), later ones from their start.
 */
export class WatcherManager {
  readonly #access: TrackerAccess;
  readonly #onTaskFinished: TaskFinishedHandler;
  readonly #onIssueActivity: IssueActivityHandler;
  readonly #onCatchUp: CatchUpHandler;
  readonly #log: Logger;
  readonly #resumePoints: ResumePoints;
  readonly #watchers = new Map<string, RunningWatcher>();
  readonly #noting: NodeJS.Timeout;
  #changes: Promise<void> = Promise.resolve();
  #isStarting = true;
  #isStopped = false;

  constructor(options: {
    access: TrackerAccess;
    onTaskFinished: TaskFinishedHandler;
    onIssueActivity: IssueActivityHandler;
    onCatchUp: CatchUpHandler;
    resumePoints: ResumePoints;
    log: Logger;
  }) {
    this.#access = options.access;
    this.#onTaskFinished = options.onTaskFinished;
    this.#onIssueActivity = options.onIssueActivity;
    this.#onCatchUp = options.onCatchUp;
    this.#log = options.log;
    this.#resumePoints = options.resumePoints;
    this.#noting = setInterval(() => this.#noteResumePoints(), RESUME_POINTS_SAVE_INTERVAL_MS);
    this.#noting.unref();
  }

  /** Brings the watchers in line with the saved token and workspaces; changes run one at a time. */
  reconnect(): Promise<void> {
    const change = this.#changes.then(() => this.#apply());
    this.#changes = change.catch(() => undefined);
    return change;
  }

  /** Connection status of each watched workspace, in the saved order. */
  statuses(): TrackerWorkspaceStatus[] {
    if (!this.#access.savedToken()) return [];
    return this.#access.watchedWorkspaces().map(
      (workspaceId) =>
        this.#watchers.get(workspaceId)?.watcher.status ?? {
          workspaceId,
          state: "disconnected",
          error: null,
          connectedAt: null,
        },
    );
  }

  /** Closes every watcher, keeping where each would resume; nothing reconnects afterwards. */
  async stop(): Promise<void> {
    this.#isStopped = true;
    clearInterval(this.#noting);
    await this.reconnect();
    await this.#resumePoints.flush();
  }

  #noteResumePoints(): void {
    for (const [workspaceId, { watcher }] of this.#watchers)
      this.#resumePoints.note(workspaceId, watcher.resumeSince());
  }

  async #apply(): Promise<void> {
    const token = this.#isStopped ? undefined : this.#access.savedToken();
    const wanted = new Set(token ? this.#access.watchedWorkspaces() : []);
    const closing: Promise<void>[] = [];
    for (const [workspaceId, running] of this.#watchers) {
      if (wanted.has(workspaceId) && running.token === token) continue;
      this.#watchers.delete(workspaceId);
      closing.push(
        running.watcher
          .close()
          .then(() => this.#resumePoints.note(workspaceId, running.watcher.resumeSince())),
      );
      this.#log(`tracker: stopped watching workspace ${workspaceId}`);
    }
    await Promise.all(closing);
    const isStarting = this.#isStarting;
    this.#isStarting = false;
    if (isStarting && this.#access.isTokenForAnotherOrigin()) {
      this.#log(`tracker: not watching: ${this.#access.noTokenError().message}`);
    }
    if (!token) return;
    const client = this.#access.clientFor(token);
    for (const workspaceId of wanted) {
      if (this.#watchers.has(workspaceId)) continue;
      const resumeFrom = isStarting ? this.#resumePoints.startingSince(workspaceId) : undefined;
      const watcher = client.watchWorkspace({
        workspaceId,
        ...(resumeFrom ? { since: resumeFrom } : {}),
        onTaskFinished: (event) => this.#onTaskFinished(client, event),
        onIssueActivity: (activity) => this.#onIssueActivity(client, activity),
        onCatchUp: (since) => this.#onCatchUp(client, workspaceId, since),
      });
      this.#watchers.set(workspaceId, { token, watcher });
      this.#log(`tracker: watching workspace ${workspaceId} for finished tasks`);
    }
  }
}
