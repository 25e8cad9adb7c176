import { type CreateDispatchRequest, type DispatchRecord, RingbackError } from "@ringback/protocol";
import type { Logger } from "../logger.js";
import { sendDispatch } from "./dispatch-create.js";
import { type DispatchChange, refreshDispatches } from "./dispatch-refresh.js";
import type { DispatchStore } from "./dispatch-store.js";
import { afterTaskRead, createdFromIssue } from "./dispatch-transitions.js";
import type { TrackerAccess } from "./tracker-access.js";

/**
 * The dispatch records and their life (spec: Dispatch, Dispatch record states): create, list (every read
 * refreshes), look up one, cancel.
 */
export class Dispatches {
  readonly #access: TrackerAccess;
  readonly #store: DispatchStore;
  readonly #log: Logger;
  readonly #now: () => Date;
  /** A list refresh in progress: a second list read joins it rather than asking the tracker again. */
  #refreshing: Promise<void> | null = null;

  constructor(options: { access: TrackerAccess; store: DispatchStore; log: Logger; now(): Date }) {
    this.#access = options.access;
    this.#store = options.store;
    this.#log = options.log;
    this.#now = options.now;
  }

  async create(request: CreateDispatchRequest): Promise<DispatchRecord> {
    const client = this.#access.requireClient();
    const workspaceId = this.#access.watchedWorkspace(request.workspaceId);
    const record = await sendDispatch(client, workspaceId, request, this.#now());
    await this.#store.add(record);
    this.#log(
      `tracker: dispatch ${record.id} ${record.kind === "comment" ? `commented on ${record.issueIdentifier}` : `sent to ${record.agentName}`}`,
    );
    return record;
  }

  /** The newest records (at most DISPATCH_RECORDS_MAX), refreshed; without a token, as last known. */
  async list(): Promise<readonly DispatchRecord[]> {
    if (this.#access.savedToken()) {
      this.#refreshing ??= this.#refresh(this.#store.list()).finally(() => {
        this.#refreshing = null;
      });
      await this.#refreshing;
    }
    return this.#store.list();
  }

  /** One record, refreshed alone; unknown: `dispatch_not_found`. */
  async lookup(id: string): Promise<DispatchRecord> {
    const record = this.#require(id);
    if (this.#access.savedToken()) await this.#refresh([record]);
    return this.#store.get(id) ?? record;
  }

  /**
   * While `creating`: cancels the quick-create task (a write, sent once) and takes the tracker's answer:
   * `cancelled` once the tracker confirms; if the task had already finished, whatever it finished with
   * (an issue already linked: `created`, untouched). Any other state: the record as it is, nothing sent.
   */
  async cancel(id: string): Promise<DispatchRecord> {
    const record = this.#require(id);
    if (record.state !== "creating" || !record.taskId) return record;
    const client = this.#access.requireClient();
    const task = await client.cancelTask({ workspaceId: record.workspaceId, taskId: record.taskId });
    const now = this.#now();
    const outcome = afterTaskRead(record, task, now);
    let after = outcome.record;
    if (outcome.kind === "issue") {
      const issue = await client.getIssue({ workspaceId: record.workspaceId, issueId: outcome.issueId });
      after = createdFromIssue(record, issue, record.agentName, now);
    }
    await this.#store.replace([{ before: record, after }]);
    this.#log(`tracker: dispatch ${id} cancel requested; now ${after.state}`);
    return this.#store.get(id) ?? after;
  }

  async #refresh(records: readonly DispatchRecord[]): Promise<void> {
    const client = this.#access.requireClient();
    const changes: DispatchChange[] = await refreshDispatches(client, records, this.#now(), this.#log);
    await this.#store.replace(changes);
  }

  #require(id: string): DispatchRecord {
    const record = this.#store.get(id);
    if (!record) throw new RingbackError("dispatch_not_found");
    return record;
  }
}
