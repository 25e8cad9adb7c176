import {
  type PutTrackerSettingsRequest,
  RingbackError,
  secretHint,
  type TrackerSettingsResponse,
  type TrackerWorkspace,
} from "@ringback/protocol";
import type { ConfigFile, RawConfig } from "../files/config-file.js";
import type { Logger } from "../logger.js";
import type { TrackerAccess } from "./tracker-access.js";
import type { WatcherManager } from "./watcher-manager.js";

/**
 * Tracker settings (spec: Tracker settings): the token lives only in daemon.json (`tracker.token`) and is
 * returned only as a hint; every change is checked against the tracker first, then saved, then the
 * watchers reconnect.
 */
export class TrackerSettings {
  readonly #access: TrackerAccess;
  readonly #config: ConfigFile;
  readonly #watchers: WatcherManager;
  readonly #log: Logger;

  constructor(options: { access: TrackerAccess; config: ConfigFile; watchers: WatcherManager; log: Logger }) {
    this.#access = options.access;
    this.#config = options.config;
    this.#watchers = options.watchers;
    this.#log = options.log;
  }

  /** `{settings, status}`; settings is null when no token is saved. */
  current(): TrackerSettingsResponse {
    const token = this.#access.savedToken();
    return {
      settings: token ? { workspaces: this.#access.watchedWorkspaces(), tokenHint: secretHint(token) } : null,
      status: { workspaces: this.#watchers.statuses() },
    };
  }

  /** The workspaces `token` (else the saved token) can access; an invalid token is `invalid_tracker_token`. */
  async workspaces(token?: string): Promise<TrackerWorkspace[]> {
    const client = token ? this.#access.clientFor(token) : this.#access.requireClient();
    const workspaces = await client.listWorkspaces();
    return workspaces.map(({ id, name, slug }) => ({ id, name, slug }));
  }

  /**
   * Validates the token (given, else saved) and every workspace against the tracker, then saves and
   * reconnects. Without a token only the workspaces change.
   */
  async save(request: PutTrackerSettingsRequest): Promise<TrackerSettingsResponse> {
    const token = request.token ?? this.#access.savedToken();
    if (!token) throw this.#access.noTokenError();
    const available = await this.workspaces(token);
    const workspaceIds = [...new Set(request.workspaceIds)];
    const unknown = workspaceIds.find((id) => !available.some((workspace) => workspace.id === id));
    if (unknown !== undefined) {
      throw new RingbackError("workspace_not_found", `Workspace ${unknown} was not found with this token.`);
    }
    const tokenOrigin = this.#access.origin();
    await this.#config.update((raw) => ({
      ...raw,
      tracker: { ...trackerSection(raw), token, tokenOrigin, workspaces: workspaceIds },
    }));
    this.#log(
      `tracker: settings saved (${request.token ? "new token, " : ""}${workspaceIds.length} workspace(s))`,
    );
    await this.#watchers.reconnect();
    return this.current();
  }

  /** Deletes the token and the watched workspaces, and disconnects. */
  async remove(): Promise<TrackerSettingsResponse> {
    await this.#config.update(({ tracker, ...rest }) => {
      const {
        token: _token,
        tokenOrigin: _tokenOrigin,
        workspaces: _workspaces,
        ...others
      } = trackerSection({ tracker });
      return Object.keys(others).length > 0 ? { ...rest, tracker: others } : rest;
    });
    this.#log("tracker: token deleted; not watching any workspace");
    await this.#watchers.reconnect();
    return this.current();
  }
}

/** The `tracker` object of daemon.json, unknown keys included so that they survive a write. */
function trackerSection(raw: RawConfig): Record<string, unknown> {
  const section = raw.tracker;
  return typeof section === "object" && section !== null && !Array.isArray(section)
    ? (section as Record<string, unknown>)
    : {};
}
