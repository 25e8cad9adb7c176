import { setTimeout as wait } from "node:timers/promises";
import { agentOperations } from "./agents.js";
import { resolveTrackerApiUrl } from "./base-url.js";
import { commentOperations } from "./comments.js";
import { issueOperations } from "./issues.js";
import { projectOperations } from "./projects.js";
import { quickCreateOperations } from "./quick-create.js";
import { type WatchWorkspaceOptions, type WorkspaceWatcher, watchWorkspace } from "./realtime.js";
import { runtimeOperations } from "./runtimes.js";
import { statusOperations } from "./statuses.js";
import { taskOperations } from "./tasks.js";
import { timelineOperations } from "./timeline.js";
import { TrackerError } from "./tracker-error.js";
import { createTransport, type Log, type Sleep, TRACKER_REQUEST_TIMEOUT_MS } from "./transport.js";
import { uploadOperations } from "./uploads.js";
import { workspaceOperations } from "./workspaces.js";

export interface TrackerClientOptions {
  /** The user's personal access token (`mul_…`), sent as `Authorization: Bearer`. */
  token: string;
  /** Default: `DAEMON_TRACKER_API_URL`, else Multica's public API. */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Receives one line per retry, give-up and realtime event; never the token. Default: console.warn. */
  log?: Log;
  /** Waits between read retries and before reconnects; tests pass one that records the delays. */
  sleep?: Sleep;
  /** Per call; default TRACKER_REQUEST_TIMEOUT_MS (uploads allow longer). */
  timeoutMs?: number;
}

const defaultSleep: Sleep = (ms, signal) => wait(ms, undefined, signal ? { signal } : undefined);

/** A typed client for the Multica REST API and its realtime connection. */
export function createTrackerClient(options: TrackerClientOptions) {
  if (!options.token) throw new TrackerError("invalid_tracker_token", "no tracker token was given");
  // Found by fuzzing: a token with a space or a non-ASCII character cannot go into a header, and fetch's TypeError
  // looked like an unreachable tracker (three retries, then 502). It is the token that is wrong.
  if (!/^[\x21-\x7e]+$/.test(options.token))
    throw new TrackerError(
      "invalid_tracker_token",
      "the tracker token has characters no token has (spaces, line breaks or non-ASCII): paste it again",
    );
  const baseUrl = resolveTrackerApiUrl(options.baseUrl);
  const log = options.log ?? ((line: string) => console.warn(line));
  const sleep = options.sleep ?? defaultSleep;
  const transport = createTransport({
    baseUrl,
    token: options.token,
    fetch: options.fetch ?? globalThis.fetch,
    log,
    sleep,
    timeoutMs: options.timeoutMs ?? TRACKER_REQUEST_TIMEOUT_MS,
  });
  const runtimes = runtimeOperations(transport);
  const agents = agentOperations(transport, runtimes);
  const tasks = taskOperations(transport, agents);

  return {
    /** The API base address in use. */
    baseUrl,
    ...workspaceOperations(transport),
    ...projectOperations(transport),
    ...runtimes,
    ...agents,
    ...tasks,
    ...issueOperations(transport),
    ...statusOperations(transport),
    ...commentOperations(transport),
    ...timelineOperations(transport),
    ...uploadOperations(transport),
    ...quickCreateOperations(transport),

    /**
     * Watches a workspace for finished agent tasks over the realtime connection, reconnecting with
     * backoff; after every (re)connect it catches up on tasks finished meanwhile. Each task is reported
     * once per watcher.
     */
    watchWorkspace(watchOptions: WatchWorkspaceOptions): WorkspaceWatcher {
      return watchWorkspace(
        {
          baseUrl,
          token: options.token,
          log,
          sleep,
          redact: transport.redact,
          listWorkspaceTasks: tasks.listWorkspaceTasks,
        },
        watchOptions,
      );
    },
  };
}

export type TrackerClient = ReturnType<typeof createTrackerClient>;
