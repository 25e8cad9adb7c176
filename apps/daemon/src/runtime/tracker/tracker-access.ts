import { RingbackError } from "@ringback/protocol";
import {
  createTrackerClient,
  MULTICA_PUBLIC_API_URL,
  type Sleep,
  TRACKER_API_URL_ENV,
  type TrackerClient,
} from "@ringback/tracker-client";
import type { ConfigFile } from "../files/config-file.js";
import type { Logger } from "../logger.js";
import { originOf } from "../secrets/secret-origin.js";

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
 * `Authorization` header the client sends, and only to the origin it was saved for (`tracker.tokenOrigin`): once
 * the tracker's address moves to another origin, the saved token counts as not saved until one is sent again.
 */
export class TrackerAccess {
  readonly #options: TrackerAccessOptions;
  #cached: { token: string; client: TrackerClient } | undefined;

  constructor(options: TrackerAccessOptions) {
    this.#options = options;
  }

  /** The saved token; undefined when none (or an empty one) is saved, or it was saved for another origin. */
  savedToken(): string | undefined {
    const tracker = this.#options.config.config.tracker;
    if (!tracker?.token || this.isTokenForAnotherOrigin()) return undefined;
    return tracker.token;
  }

  /**
   * True when a token is saved for an origin the tracker's address is no longer on. A token saved before tokens
   * were bound has no origin: it counts as saved for the address in use, and is bound to it at the next save.
   */
  isTokenForAnotherOrigin(): boolean {
    const tracker = this.#options.config.config.tracker;
    if (!tracker?.token || tracker.tokenOrigin === undefined) return false;
    return tracker.tokenOrigin !== this.origin();
  }

  /** The tracker's address in use: `DAEMON_TRACKER_API_URL`, else Multica's public API. */
  apiUrl(): string {
    return this.#options.env[TRACKER_API_URL_ENV]?.trim() || MULTICA_PUBLIC_API_URL;
  }

  /** The origin a token saved now is bound to. */
  origin(): string | null {
    return originOf(this.apiUrl());
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
      baseUrl: this.apiUrl(),
      log: (line) => log(`tracker: ${line}`),
      ...(this.#options.sleep ? { sleep: this.#options.sleep } : {}),
    });
    if (token === this.savedToken()) this.#cached = { token, client };
    return client;
  }

  /** The client for the saved token; none saved (or saved for another origin): `tracker_not_configured`. */
  requireClient(): TrackerClient {
    const token = this.savedToken();
    if (!token) throw this.noTokenError();
    return this.clientFor(token);
  }

  /** `tracker_not_configured`, saying why when a token is saved for another origin. */
  noTokenError(): RingbackError {
    if (!this.isTokenForAnotherOrigin()) return new RingbackError("tracker_not_configured");
    return new RingbackError(
      "tracker_not_configured",
      `The tracker token saved on this computer is sent only to ${this.#options.config.config.tracker?.tokenOrigin}; the tracker is now at ${this.origin()}: send its token.`,
    );
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
