import { type Attachment, DISPATCH_OPTIONS_POLL_MS, type DispatchRecord } from "@ringback/protocol";
import type { RingSound } from "../audio/ring-sound.js";
import type { Ringer } from "../audio/ringer.js";
import { Observable } from "../controller/observable.js";
import type { DispatchLastUsed, LocalSettings } from "../storage/local-settings.js";
import { availabilityOf } from "./availability.js";
import { type DispatchMode, dispatchBlocker } from "./dispatch-blocker.js";
import { type CallProgress, DispatchCall } from "./dispatch-call.js";
import type { DispatchClient, DispatchDaemon } from "./dispatch-daemon.js";
import { dispatchProblem } from "./dispatch-problem.js";
import { dispatchRequest, nextLastUsed } from "./dispatch-request.js";
import { type DispatchView, INITIAL_DISPATCH_VIEW } from "./dispatch-view.js";
import { DraftImages } from "./draft-images.js";
import { IssueSearch } from "./issue-search.js";
import type { ImagePreparer } from "./prepared-image.js";
import { keepOrDefault } from "./selection-defaults.js";

export type { DispatchView } from "./dispatch-view.js";

export interface DispatchControllerOptions {
  readonly daemon: DispatchDaemon;
  readonly settings: LocalSettings;
  readonly ringer: Ringer;
  readonly callWaitingSound: () => RingSound;
  readonly prepareImage: ImagePreparer;
}

const EMPTY_DRAFT = { words: "", images: [], issueId: null, problem: null } as const;

/**
 * The dispatch screen: options re-read every 10 s, project and agent defaulting to the last used, a new issue or a
 * comment on an existing one, images, then uploads one by one, the dispatch, and the calling stage.
 */
export class DispatchController extends Observable<DispatchView> {
  readonly #images: DraftImages;
  readonly #search: IssueSearch;
  #lastUsed: DispatchLastUsed | null = null;
  #optionsTimer: ReturnType<typeof setTimeout> | undefined;
  #isOpen = false;
  #statusesFor: string | null | undefined;
  #call: DispatchCall | null = null;

  constructor(private readonly options: DispatchControllerOptions) {
    super(INITIAL_DISPATCH_VIEW);
    this.#images = new DraftImages(options.prepareImage, (images) => this.#set({ images }));
    this.#search = new IssueSearch((search) => this.#set({ search }));
  }

  /** The screen opened: read the options now and every 10 seconds until `close`. */
  async open(): Promise<void> {
    if (this.#isOpen) return;
    this.#isOpen = true;
    this.#lastUsed ??= await this.options.settings.loadDispatchLastUsed();
    await this.#readOptions(true);
  }

  close(): void {
    this.#isOpen = false;
    clearTimeout(this.#optionsTimer);
  }

  /** The app stops: no timers, no tone. */
  stop(): void {
    this.close();
    this.#call?.stop();
  }

  /** Reads the options again at once (a "retry" tap). */
  refresh(): Promise<void> {
    clearTimeout(this.#optionsTimer);
    return this.#readOptions(false);
  }

  async chooseWorkspace(workspaceId: string): Promise<void> {
    this.#set({ workspaceId, projectId: null, agentId: null, issueId: null, projects: [], agents: [] });
    this.#search.clear();
    await this.refresh();
  }

  chooseProject(projectId: string): void {
    this.#set({ projectId, issueId: null });
    if (this.view.mode === "comment") this.searchIssues().catch(() => undefined);
  }

  chooseAgent(agentId: string): void {
    this.#set({ agentId });
  }

  setMode(mode: DispatchMode): void {
    this.#set({ mode, issueId: null });
    if (mode === "comment") this.searchIssues().catch(() => undefined);
  }

  setWords(words: string): void {
    this.#set({ words, problem: null });
  }

  addImages(files: readonly File[]): Promise<void> {
    return this.#images.add(files);
  }

  removeImage(id: string): void {
    this.#images.remove(id);
  }

  chooseIssue(issueId: string | null): void {
    this.#set({ issueId });
  }

  /** Existing issues of the project by words or number, in the chosen statuses (none chosen: any status). */
  async searchIssues(
    query = this.view.search.query,
    statusFilter = this.view.search.statusFilter,
  ): Promise<void> {
    const projectId = this.view.projectId;
    if (projectId === null) return;
    await this.#search.search(await this.options.daemon.client(), {
      projectId,
      query,
      statusFilter,
      workspaceId: this.view.workspaceId,
    });
  }

  /** Uploads the images one by one, then creates the dispatch; a created issue is then called for. */
  async send(): Promise<void> {
    if (this.view.blocker !== null || this.view.stage !== "compose") return;
    const images = this.#images.prepared();
    this.#set({ stage: "sending", progress: { uploaded: 0, total: images.length }, problem: null });
    try {
      const client = await this.options.daemon.client();
      const workspace = this.view.workspaceId ? { workspaceId: this.view.workspaceId } : {};
      const attachments: Attachment[] = [];
      for (const image of images) {
        attachments.push(
          await client.upload({ name: image.name, type: image.type, data: image.data, ...workspace }),
        );
        this.#set({ progress: { uploaded: attachments.length, total: images.length } });
      }
      const record = await client.createDispatch(dispatchRequest(this.view, attachments));
      this.#lastUsed = nextLastUsed(this.#lastUsed, this.view);
      this.#images.clear();
      this.#set({ ...EMPTY_DRAFT, progress: null });
      this.#startCall(client, record);
      // The dispatch exists: a device whose storage is full only forgets the defaults.
      await this.options.settings.saveDispatchLastUsed(this.#lastUsed).catch(() => undefined);
    } catch (error) {
      this.#set({ stage: "compose", progress: null, problem: dispatchProblem(error) });
    }
  }

  async cancel(): Promise<void> {
    try {
      await this.#call?.cancel();
    } catch (error) {
      this.#set({ problem: dispatchProblem(error) });
    }
  }

  /** Leaves the calling screen for "my dispatches": no more polling or tone here; the list shows the outcome. */
  async leave(): Promise<void> {
    this.#endCall();
    await this.refreshDispatches();
  }

  /** Back to a new, empty draft after a dispatch ended. */
  startNew(): void {
    this.#endCall();
  }

  /** "My dispatches": `GET /tracker/dispatches`, newest first, refreshed from the tracker by the daemon. */
  async refreshDispatches(): Promise<void> {
    try {
      const dispatches = await (await this.options.daemon.client()).listDispatches();
      this.#set({ dispatches, listProblem: null });
    } catch (error) {
      this.#set({ listProblem: dispatchProblem(error) });
    }
  }

  #startCall(client: DispatchClient, record: DispatchRecord): void {
    this.#call = new DispatchCall(record, {
      client,
      ringer: this.options.ringer,
      sound: this.options.callWaitingSound,
      onChange: (progress: CallProgress) => {
        const hasEnded = progress.stage !== "calling" && this.view.stage !== progress.stage;
        this.#set({ stage: progress.stage, current: progress.record, lookupProblem: progress.lookupProblem });
        // "My dispatches" below the calling screen shows the outcome too.
        if (hasEnded) this.refreshDispatches().catch(() => undefined);
      },
    });
    this.#call.start();
    if (this.view.stage === "calling") this.refreshDispatches().catch(() => undefined);
  }

  #endCall(): void {
    this.#call?.stop();
    this.#call = null;
    this.#set({ stage: "compose", current: null, lookupProblem: null, problem: null });
  }

  async #readOptions(isFirst: boolean): Promise<void> {
    try {
      const result = await availabilityOf(this.options.daemon, this.view.workspaceId);
      const lastUsed = this.#lastUsed;
      this.#set({
        availability: result.availability,
        availabilityProblem: result.problem,
        ...(result.options && {
          projects: result.options.projects,
          agents: result.options.agents,
          projectId: keepOrDefault(result.options.projects, this.view.projectId, lastUsed?.projectId ?? null),
          agentId: keepOrDefault(
            result.options.agents,
            this.view.agentId,
            lastUsed?.agentId ?? null,
            (agent) => agent.online,
          ),
        }),
      });
      if (result.client) await this.#readWorkspaceExtras(result.client, isFirst);
    } finally {
      // Every 10 seconds while the screen is open, whatever this read found.
      if (this.#isOpen) {
        clearTimeout(this.#optionsTimer);
        this.#optionsTimer = setTimeout(() => {
          this.#readOptions(false).catch(() => undefined);
        }, DISPATCH_OPTIONS_POLL_MS);
      }
    }
  }

  /** Once per workspace: its statuses (the comment search's filter); once per opening: the watched workspaces. */
  async #readWorkspaceExtras(client: DispatchClient, isFirst: boolean): Promise<void> {
    if (this.#statusesFor !== this.view.workspaceId) {
      const statuses = await client.dispatchStatuses(this.view.workspaceId ?? undefined).catch(() => null);
      if (statuses) {
        this.#statusesFor = this.view.workspaceId;
        this.#set({ statuses: statuses.statuses });
      }
    }
    if (!isFirst) return;
    const watched = await this.options.daemon.watchedWorkspaces();
    if (watched.length < 2) {
      this.#set({ workspaces: watched.map((id) => ({ id, name: id })) });
      return;
    }
    const named = await client.trackerWorkspaces().catch(() => ({ workspaces: [] }));
    const nameOf = (id: string) => named.workspaces.find((workspace) => workspace.id === id)?.name ?? id;
    this.#set({ workspaces: watched.map((id) => ({ id, name: nameOf(id) })) });
    // The last used workspace, when it is still watched, once the watched ones are known.
    const remembered = this.#lastUsed?.workspaceId ?? null;
    if (this.view.workspaceId === null && remembered !== null && watched.includes(remembered))
      await this.chooseWorkspace(remembered);
  }

  #set(change: Partial<DispatchView>): void {
    const next = { ...this.view, ...change };
    this.update({ ...change, blocker: dispatchBlocker(next) });
  }
}
