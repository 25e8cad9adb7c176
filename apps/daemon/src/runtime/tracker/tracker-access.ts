import { RingbackError } from "@ringback/protocol";
import {
  createTrackerClient,
  type Sleep,
  TRACKER_API_URL_ENV,
  type TrackerClient,
} from "@ringback/tracker-client";
import type { ConfigFile } from "../config-file.js";
import type { Logger } from "../logger.js";

export interface TrackerAccessOptions {
  config: ConfigFile;
  /** `DAEMON_TRACKER_API_URL` is read from here (else Multica's public API). */
  env: NodeJS.ProcessEnv;
  log: Logger;
  /** Waits between read retries; tests pass one that records the delays. */
  sleep?: Sleep;
}

/**
 * The tracker token and watched workspaces as saved in daemon.json (`tracker.token`,
 * `tracker.workspaces`), and tracker clients for them. The token never leaves this object except in the
 * `Authorization` header the client sends.
 */
export class TrackerAccess {
  readonly #options: TrackerAccessOptions;
  #cached: { token: string; client: TrackerClient } | undefined;

  constructor(options: TrackerAccessOptions) {
    this.#options = options;
  }

  /** The saved token; undefined when none (or an empty one) is saved. */
  savedToken(): string | undefined {
    const token = this.#options.config.config.tracker?.token;
    return token ? token : undefined;
  }

  /** The watched workspace ids, in the order they were saved. */
  watchedWorkspaces(): string[] {
    return this.#options.config.config.tracker?.workspaces ?? [];
  }

  /** A client for `token` (a token being validated), or for the saved one. */
  clientFor(token: string): TrackerClient {
    if (this.#cached?.token === token) return this.#cached.client;
    const log = this.#options.log;
    const client = createTrackerClient({
      token,
      baseUrl: this.#options.env[TRACKER_API_URL_ENV]?.trim() || undefined,
      log: (line) => log(`tracker: ${line}`),
      ...(this.#options.sleep ? { sleep: this.#options.sleep } : {}),
    });
    if (token === this.savedToken()) this.#cached = { token, client };
    return client;
  }

  /** The client for the saved token; none saved: `tracker_not_configured`. */
  requireClient(): TrackerClient {
    const token = this.savedToken();
    if (!token) throw new RingbackError("tracker_not_configured");
    return this.clientFor(token);
  }

  /**
   * `workspaceId` when it is watched, else the first watched workspace. An unwatched workspace is
   * `workspace_not_found`; no watched workspace at all is `tracker_not_configured`.
   */
  watchedWorkspace(workspaceId?: string): string {
    const watched = this.watchedWorkspaces();
    if (workspaceId === undefined) {
      const first = watched[0];
      if (first === undefined) throw new RingbackError("tracker_not_configured", "No workspace is watched.");
      return first;
    }
    if (!watched.includes(workspaceId)) {
      throw new RingbackError("workspace_not_found", "This workspace is not one of the watched workspaces.");
    }
    return workspaceId;
  }
}
