import type { CallAction, CallsModel } from "../calls/call-machine.js";
import type { CallRecord } from "../calls/call-record.js";
import type { CallContent } from "../calls/call-record-changes.js";
import {
  CallRecordsStore,
  loadAnsweredIds,
  type SaveResult,
  saveAnsweredIds,
} from "../storage/call-records.js";
import type { KeyValueStore } from "../storage/key-value.js";

/**
 * The calls as stored on the device: read once, then each reducer action's changes written in the order they
 * happened, each kind of field the way it is stored (another context of this device, the service worker, writes the
 * same records, so a write merges into what is stored instead of replacing it).
 */
export class CallPersistence {
  readonly #store: KeyValueStore;
  readonly #records: CallRecordsStore;
  /** Records storage deleted to make room: the model lets them go too. */
  readonly #onEvicted: (eventIds: readonly string[]) => void;
  readonly #logError: (message: string, error: unknown) => void;
  #persisting: Promise<void> = Promise.resolve();

  constructor(
    store: KeyValueStore,
    onEvicted: (eventIds: readonly string[]) => void,
    logError: (message: string, error: unknown) => void = (message, error) => console.error(message, error),
  ) {
    this.#store = store;
    this.#records = new CallRecordsStore(store);
    this.#onEvicted = onEvicted;
    this.#logError = logError;
  }

  async load(): Promise<CallsModel> {
    const [records, answeredIds] = await Promise.all([this.#records.loadAll(), loadAnsweredIds(this.#store)]);
    return { records: Object.fromEntries(records.map((record) => [record.eventId, record])), answeredIds };
  }

  /** Settles when every change so far is stored. */
  persisted(): Promise<void> {
    return this.#persisting;
  }

  /** Stores what one action changed between two models. */
  save(action: CallAction, before: CallsModel, after: CallsModel): void {
    switch (action.type) {
      case "records-evicted":
        // Storage deleted them already.
        return;
      case "content-changed":
        this.#saveContent(action.eventId, action.change);
        return;
      case "issues-refreshed":
        this.#afterSaving(async () => {
          for (const record of changedRecords(before, after)) this.#evicted(await this.#records.save(record));
        });
        return;
      case "reply-sent": {
        const record = after.records[action.eventId];
        if (record) this.#saveContent(action.eventId, { replies: record.replies });
        this.#saveStatus(before, after);
        return;
      }
      case "verdict-sent": {
        const record = after.records[action.eventId];
        if (record) this.#saveContent(action.eventId, { verdict: record.verdict });
        this.#saveStatus(before, after);
        return;
      }
      default:
        this.#saveStatus(before, after);
    }
  }

  /** What the user said: merged into the stored record, whose status fields stay as stored. */
  #saveContent(eventId: string, change: Partial<CallContent>): void {
    this.#afterSaving(async () => this.#evicted(await this.#records.saveContent(eventId, change)));
  }

  /**
   * Status fields: an existing record merges them into what is stored, so nothing another context of this device
   * wrote meanwhile (conversation, replies) is lost; a new record is stored whole.
   */
  #saveStatus(before: CallsModel, after: CallsModel): void {
    const changed = changedRecords(before, after);
    const isAnsweredChanged = before.answeredIds !== after.answeredIds;
    this.#afterSaving(async () => {
      for (const record of changed) {
        this.#evicted(
          before.records[record.eventId]
            ? await this.#records.saveLaterStatus(record)
            : await this.#records.save(record),
        );
      }
      if (isAnsweredChanged) await saveAnsweredIds(this.#store, after.answeredIds);
    });
  }

  #evicted({ evicted }: SaveResult): void {
    if (evicted.length > 0) this.#onEvicted(evicted);
  }

  #afterSaving(save: () => Promise<void>): void {
    this.#persisting = this.#persisting
      .then(save)
      .catch((error: unknown) => this.#logError("Could not save call records.", error));
  }
}

function changedRecords(before: CallsModel, after: CallsModel): CallRecord[] {
  return Object.values(after.records).filter((record) => before.records[record.eventId] !== record);
}
