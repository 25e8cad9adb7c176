import type { TrackerWorkspaceStatus } from "@ringback/protocol";
import { WebSocket } from "ws";
import { realtimeUrl } from "./base-url.js";
import { activityFromFrame, type IssueActivity } from "./issue-activity.js";
import { finishedFromFrame, finishedFromTasks, parseFrame, type TaskFinished } from "./realtime-frames.js";
import { SeenTasks } from "./seen-tasks.js";
import type { AgentTask } from "./tasks.js";
import type { Log, Sleep } from "./transport.js";

/** Waits before reconnecting: doubling from 1 s after each failed attempt, at most 30 s. */
export const WATCH_RECONNECT_INITIAL_MS = 1_000;
export const WATCH_RECONNECT_MAX_MS = 30_000;
/** The watcher sends `{"type":"ping"}` this often (the tracker answers `pong`). */
export const WATCH_KEEPALIVE_INTERVAL_MS = 25_000;
/** Nothing heard for this long (the tracker itself pings every 54 s): the connection is presumed dead. */
export const WATCH_SILENCE_TIMEOUT_MS = 75_000;
/**
 * The catch-up after a reconnect starts this long before the connection was lost: the tracker's times
 * have second precision and its clock is not this computer's. Tasks seen twice are reported once.
 */
export const CATCH_UP_OVERLAP_MS = 5 * 60_000;
/** The WebSocket opening handshake must finish within this. */
const HANDSHAKE_TIMEOUT_MS = 15_000;

export interface WatchWorkspaceOptions {
  workspaceId: string;
  /**
   * Called once per finished task (within the watcher's lifetime). If it throws, the task counts as not
   * reported and the next catch-up may report it again.
   */
  onTaskFinished: (event: TaskFinished) => void | Promise<void>;
  /**
   * Called for each comment written and each status change on the workspace's issues while connected (realtime
   * only: the watcher catches none of it up after a reconnect; see `onCatchUp`). A throw is logged.
   */
  onIssueActivity?: (activity: IssueActivity) => void | Promise<void>;
  /**
   * Called at every catch-up, after its finished tasks, with the start of the time it covers (when the connection
   * was lost, less CATCH_UP_OVERLAP_MS; at the first connection, `since`): for the caller's own catch-up of what
   * realtime would have shown meanwhile. A rejection fails the catch-up: the watcher reconnects and calls it again
   * with the same time.
   */
  onCatchUp?: (since: Date) => Promise<void>;
  onStatus?: (status: TrackerWorkspaceStatus) => void;
  /**
   * The first catch-up reports tasks finished since then; default: when the watcher starts. A later watcher of the
   * workspace (after a restart) passes the earlier one's `resumeSince()` to miss nothing in between.
   */
  since?: Date | string;
  keepaliveIntervalMs?: number;
  silenceTimeoutMs?: number;
}

export interface WorkspaceWatcher extends AsyncDisposable {
  readonly status: TrackerWorkspaceStatus;
  /**
   * Where a later watcher of this workspace should start (its `since`) to miss nothing this one has not reported:
   * CATCH_UP_OVERLAP_MS before now while realtime covers everything; else the start of the time not covered yet (this
   * watcher's own `since` until its first catch-up succeeds, the connection's loss less the overlap after it). Once
   * closed, it stays where the close left it.
   */
  resumeSince(): Date;
  /** Stops reconnecting and closes the connection; resolves when the watcher has stopped. */
  close(): Promise<void>;
}

export interface WatcherDependencies {
  baseUrl: string;
  token: string;
  log: Log;
  sleep: Sleep;
  redact: (text: string) => string;
  listWorkspaceTasks: (input: { workspaceId: string }) => Promise<AgentTask[]>;
}

interface ConnectionEnd {
  authenticated: boolean;
  reason: string;
  refusal: string | null;
}

function reconnectDelay(failedAttempts: number): number {
  return Math.min(WATCH_RECONNECT_INITIAL_MS * 2 ** failedAttempts, WATCH_RECONNECT_MAX_MS);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

class Watcher implements WorkspaceWatcher {
  private closed = false;
  private readonly stop = new AbortController();
  private socket: WebSocket | undefined;
  private readonly seen = new SeenTasks();
  /** Finished tasks from this time on may not have been reported yet; null while realtime covers everything. */
  private uncoveredSinceMs: number | null;
  private readonly running: Promise<void>;
  private readonly keepaliveIntervalMs: number;
  private readonly silenceTimeoutMs: number;
  status: TrackerWorkspaceStatus;

  constructor(
    private readonly dependencies: WatcherDependencies,
    private readonly options: WatchWorkspaceOptions,
  ) {
    this.uncoveredSinceMs = options.since === undefined ? Date.now() : new Date(options.since).getTime();
    this.keepaliveIntervalMs = options.keepaliveIntervalMs ?? WATCH_KEEPALIVE_INTERVAL_MS;
    this.silenceTimeoutMs = options.silenceTimeoutMs ?? WATCH_SILENCE_TIMEOUT_MS;
    this.status = { workspaceId: options.workspaceId, state: "connecting", error: null, connectedAt: null };
    this.running = this.run();
  }

  private log(line: string): void {
    this.dependencies.log(
      this.dependencies.redact(`tracker realtime (workspace ${this.options.workspaceId}): ${line}`),
    );
  }

  private setStatus(
    state: TrackerWorkspaceStatus["state"],
    error: string | null,
    connectedAt: string | null = null,
  ) {
    this.status = { workspaceId: this.options.workspaceId, state, error, connectedAt };
    try {
      this.options.onStatus?.(this.status);
    } catch (listenerError) {
      this.log(`onStatus threw: ${errorText(listenerError)}`);
    }
  }

  private async run(): Promise<void> {
    let failedAttempts = 0;
    let lastError: string | null = null;
    while (!this.closed) {
      this.setStatus("connecting", lastError);
      const end = await this.connect();
      if (this.closed) break;
      this.uncoveredSinceMs ??= Date.now() - CATCH_UP_OVERLAP_MS;
      failedAttempts = end.authenticated ? 0 : failedAttempts + 1;
      lastError = end.refusal ?? end.reason;
      this.setStatus(end.refusal === null ? "disconnected" : "error", lastError);
      const delayMs = reconnectDelay(Math.max(0, failedAttempts - 1));
      this.log(`connection ended (${end.reason}); reconnecting in ${delayMs} ms`);
      try {
        await this.dependencies.sleep(delayMs, this.stop.signal);
      } catch {
        // close() aborted the wait.
      }
    }
    this.setStatus("disconnected", null);
  }

  /** One connection, from opening to its end: authenticates, catches up, reports finished tasks. */
  private connect(): Promise<ConnectionEnd> {
    return new Promise((resolve) => {
      const socket = new WebSocket(realtimeUrl(this.dependencies.baseUrl, this.options.workspaceId), {
        handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
      });
      this.socket = socket;
      const end: ConnectionEnd = { authenticated: false, reason: "connection closed", refusal: null };
      let lastHeardAt = Date.now();
      const heard = () => {
        lastHeardAt = Date.now();
      };
      const keepalive = setInterval(() => {
        if (Date.now() - lastHeardAt > this.silenceTimeoutMs) {
          end.reason = `nothing heard for ${this.silenceTimeoutMs} ms`;
          socket.terminate();
        } else if (end.authenticated) {
          socket.send(JSON.stringify({ type: "ping" }));
        }
      }, this.keepaliveIntervalMs);

      // The token goes in the first frame, never in the address, so no proxy or log sees it.
      socket.on("open", () => {
        heard();
        socket.send(JSON.stringify({ type: "auth", payload: { token: this.dependencies.token } }));
      });
      socket.on("ping", heard);
      socket.on("pong", heard);
      socket.on("message", (data) => {
        heard();
        const frame = parseFrame(data.toString());
        if (!frame) return;
        if (typeof frame.error === "string") {
          end.refusal = this.dependencies.redact(frame.error);
          end.reason = `refused: ${end.refusal}`;
        } else if (!end.authenticated) {
          if (frame.type !== "auth_ack") return;
          end.authenticated = true;
          this.setStatus("connected", null, new Date().toISOString());
          void this.catchUp(socket);
        } else {
          const finished = finishedFromFrame(frame, this.options.workspaceId);
          if (finished) void this.deliver(finished);
          const activity = this.options.onIssueActivity && activityFromFrame(frame, this.options.workspaceId);
          if (activity) void this.deliverActivity(activity);
        }
      });
      socket.on("error", (error) => {
        end.reason = this.dependencies.redact(errorText(error));
      });
      socket.on("close", () => {
        clearInterval(keepalive);
        if (this.socket === socket) this.socket = undefined;
        resolve(end);
      });
    });
  }

  /** Reports what finished while no connection covered it; on failure, reconnects to try again. */
  private async catchUp(socket: WebSocket): Promise<void> {
    const sinceMs = this.uncoveredSinceMs;
    if (sinceMs === null) return;
    try {
      const tasks = await this.dependencies.listWorkspaceTasks({ workspaceId: this.options.workspaceId });
      const events = finishedFromTasks(tasks, sinceMs);
      let failed = 0;
      for (const event of events) if (!(await this.deliver(event))) failed += 1;
      if (!this.closed) await this.options.onCatchUp?.(new Date(sinceMs));
      this.log(
        `caught up on tasks finished since ${new Date(sinceMs).toISOString()} (${events.length} found${failed > 0 ? `, ${failed} to try again at the next catch-up` : ""})`,
      );
      // Covered only if every task found was handled and this connection stayed up the whole time; otherwise the next
      // catch-up repeats it (a task whose handling failed finished before the overlap, so only `sinceMs` reaches it).
      if (
        failed === 0 &&
        this.socket === socket &&
        socket.readyState === WebSocket.OPEN &&
        this.uncoveredSinceMs === sinceMs
      ) {
        this.uncoveredSinceMs = null;
      }
    } catch (error) {
      if (this.closed) return;
      this.log(`catch-up failed (${errorText(error)}); reconnecting to try again`);
      socket.terminate();
    }
  }

  /** Hands a finished task on once; false when handling it failed (it is then reported again later). */
  private async deliver(event: TaskFinished): Promise<boolean> {
    if (this.closed || this.seen.has(event.taskId)) return true;
    this.seen.add(event.taskId);
    try {
      await this.options.onTaskFinished(event);
      return true;
    } catch (error) {
      this.seen.delete(event.taskId);
      this.uncoveredSinceMs = Math.min(
        this.uncoveredSinceMs ?? Number.POSITIVE_INFINITY,
        Date.now() - CATCH_UP_OVERLAP_MS,
      );
      this.log(
        `onTaskFinished threw for task ${event.taskId} (${errorText(error)}); the next catch-up retries it`,
      );
      return false;
    }
  }

  private async deliverActivity(activity: IssueActivity): Promise<void> {
    if (this.closed) return;
    try {
      await this.options.onIssueActivity?.(activity);
    } catch (error) {
      this.log(`onIssueActivity threw for issue ${activity.issueId} (${errorText(error)})`);
    }
  }

  resumeSince(): Date {
    return new Date(this.uncoveredSinceMs ?? Date.now() - CATCH_UP_OVERLAP_MS);
  }

  async close(): Promise<void> {
    if (!this.closed) {
      this.closed = true;
      this.uncoveredSinceMs ??= Date.now() - CATCH_UP_OVERLAP_MS;
      this.stop.abort();
      this.socket?.terminate();
    }
    await this.running;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/** Watches one workspace's realtime connection, reconnecting with backoff until closed. */
export function watchWorkspace(
  dependencies: WatcherDependencies,
  options: WatchWorkspaceOptions,
): WorkspaceWatcher {
  return new Watcher(dependencies, options);
}
