import type { TrackerSettingsResponse, TrackerWorkspace } from "@ringback/protocol";
import { Observable } from "../controller/observable.js";
import type { DaemonClient } from "../daemon/daemon-client.js";
import { askComputer } from "./ask-computer.js";
import { type ComputerProblem, formProblem } from "./computer-problem.js";

/** The relayed daemon requests of Settings › Tracker. */
export type TrackerSettingsClient = Pick<
  DaemonClient,
  "trackerSettings" | "trackerWorkspaces" | "saveTrackerSettings" | "deleteTrackerSettings"
>;

export interface TrackerSettingsDependencies {
  /** The chosen computer's daemon; rejects with NoComputerError when the account has none. */
  client(): Promise<TrackerSettingsClient>;
  /** Keeps the watched workspaces on the device (several put the workspace before the project in calls). */
  setWatchedWorkspaces(ids: readonly string[]): Promise<void>;
}

/** Choosing workspaces: after a new token was checked (`token`), or with the saved token (`token` null). */
export interface WorkspaceChoice {
  readonly token: string | null;
  readonly workspaces: readonly TrackerWorkspace[];
  readonly selected: readonly string[];
}

export type TrackerBusy = "loading" | "validating" | "saving" | "removing";

export interface TrackerSettingsView {
  /** As the daemon last said (`settings` null: no token saved); null before the first answer. */
  readonly saved: TrackerSettingsResponse | null;
  readonly choice: WorkspaceChoice | null;
  /** Workspace names from the last listing, to name the watched workspaces. */
  readonly names: Readonly<Record<string, string>>;
  readonly busy: TrackerBusy | null;
  readonly problem: ComputerProblem | null;
  readonly notice: "saved" | "removed" | null;
}

/**
 * Settings › Tracker (spec: Tracker settings screen): enter a token, check it (`POST /tracker/workspaces` lists
 * what it can access), choose workspaces, save (`PUT /tracker/settings`). Afterwards only the masked hint is shown
 * and changing workspaces needs no token. Each save or removal reads the settings again and keeps the watched
 * workspaces on the device. The token stays in the choice only until it is saved or the choice is cancelled.
 */
export class TrackerSettingsController extends Observable<TrackerSettingsView> {
  constructor(private readonly deps: TrackerSettingsDependencies) {
    super({ saved: null, choice: null, names: {}, busy: null, problem: null, notice: null });
  }

  /** Reads the settings and their per-workspace status; with a saved token also the workspaces' names. */
  load(): Promise<void> {
    return this.#run("loading", async (client) => {
      await this.#read(client);
      if (this.view.saved?.settings) {
        // Only for names: a tracker that does not answer now leaves the ids shown.
        const listed = await client.trackerWorkspaces().catch(() => null);
        if (listed) this.#remember(listed.workspaces);
      }
    });
  }

  /** Checks a new token: the workspaces it can access become the choice. */
  validate(token: string): Promise<void> {
    const trimmed = token.trim();
    if (trimmed === "") {
      this.update({ problem: formProblem("token-required"), notice: null });
      return Promise.resolve();
    }
    return this.#run("validating", async (client) => {
      const { workspaces } = await client.trackerWorkspaces(trimmed);
      this.#choose(trimmed, workspaces);
    });
  }

  /** "Change workspaces": lists them with the saved token, no token asked. */
  changeWorkspaces(): Promise<void> {
    return this.#run("validating", async (client) => {
      const { workspaces } = await client.trackerWorkspaces();
      this.#choose(null, workspaces);
    });
  }

  toggle(workspaceId: string): void {
    const choice = this.view.choice;
    if (!choice) return;
    const selected = choice.selected.includes(workspaceId)
      ? choice.selected.filter((id) => id !== workspaceId)
      : [...choice.selected, workspaceId];
    this.update({ choice: { ...choice, selected }, problem: null });
  }

  cancel(): void {
    this.update({ choice: null, problem: null });
  }

  /** Saves the choice (the new token with it, if one was checked), then reads the settings again. */
  save(): Promise<void> {
    const choice = this.view.choice;
    if (!choice) return Promise.resolve();
    if (choice.selected.length === 0) {
      this.update({ problem: formProblem("no-workspace"), notice: null });
      return Promise.resolve();
    }
    // Keep the tracker's order, whatever order they were ticked in.
    const workspaceIds = choice.workspaces
      .map((workspace) => workspace.id)
      .filter((id) => choice.selected.includes(id));
    return this.#run("saving", async (client) => {
      await client.saveTrackerSettings(
        choice.token ? { token: choice.token, workspaceIds } : { workspaceIds },
      );
      this.update({ choice: null });
      await this.#read(client);
      this.update({ notice: "saved" });
    });
  }

  /** Deletes the token on the computer; it stops watching. */
  remove(): Promise<void> {
    return this.#run("removing", async (client) => {
      await client.deleteTrackerSettings();
      this.update({ choice: null });
      await this.#read(client);
      this.update({ notice: "removed" });
    });
  }

  async #read(client: TrackerSettingsClient): Promise<void> {
    const saved = await client.trackerSettings();
    this.update({ saved });
    await this.deps.setWatchedWorkspaces(saved.settings?.workspaces ?? []);
  }

  #choose(token: string | null, workspaces: readonly TrackerWorkspace[]): void {
    this.#remember(workspaces);
    const watched = this.view.saved?.settings?.workspaces ?? [];
    const available = workspaces.map((workspace) => workspace.id);
    // What is watched now stays ticked; a token with one workspace needs no choosing.
    const kept = watched.filter((id) => available.includes(id));
    const selected = kept.length > 0 ? kept : available.length === 1 ? available : [];
    this.update({ choice: { token, workspaces, selected } });
  }

  #remember(workspaces: readonly TrackerWorkspace[]): void {
    const names = { ...this.view.names };
    for (const workspace of workspaces) names[workspace.id] = workspace.name;
    this.update({ names });
  }

  async #run(busy: TrackerBusy, action: (client: TrackerSettingsClient) => Promise<void>): Promise<void> {
    const start = { busy, problem: null, notice: null };
    await askComputer(
      (change) => this.update(change),
      start,
      () => this.deps.client(),
      action,
    );
  }
}
