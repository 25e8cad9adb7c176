import { ANSWERED_IDS_MAX, CALL_RECORDS_MAX } from "@ringback/protocol";
import { type CallRecord, mergeLaterStatus } from "../calls/call-record.js";
import { isQuotaExceeded, type KeyValueStore } from "./key-value.js";
import { ANSWERED_IDS_KEY, CALL_RECORD_PREFIX, callRecordKey } from "./storage-keys.js";

export interface SaveResult {
  /** Records deleted to make room, oldest first; the caller drops them from memory too. */
  readonly evicted: readonly string[];
}

/**
 * Call records (`call.<eventId>`) on the device: at most CALL_RECORDS_MAX; when there are more, or when storage is
 * full, the oldest (by when the device learned of them) are deleted first. Load once, then save through it.
 */
export class CallRecordsStore {
  /** eventId -> learnedAt of every stored record. */
  private readonly index = new Map<string, string>();

  constructor(private readonly store: KeyValueStore) {}

  async loadAll(): Promise<CallRecord[]> {
    const keys = (await this.store.keys()).filter((key) => key.startsWith(CALL_RECORD_PREFIX));
    const records: CallRecord[] = [];
    for (const key of keys) {
      const record = await this.store.get<CallRecord>(key);
      if (record && typeof record.eventId === "string" && record.status) {
        records.push(record);
        this.index.set(record.eventId, record.learnedAt);
      }
    }
    return records;
  }

  /** Writes a record, deleting the oldest others when over the limit or when storage is full. */
  async save(record: CallRecord): Promise<SaveResult> {
    const evicted: string[] = [];
    for (;;) {
      try {
        await this.store.set(callRecordKey(record.eventId), record);
        break;
      } catch (error) {
        const oldest = this.oldestExcept(record.eventId);
        if (!isQuotaExceeded(error) || oldest === undefined) throw error;
        await this.remove(oldest);
        evicted.push(oldest);
      }
    }
    this.index.set(record.eventId, record.learnedAt);
    while (this.index.size > CALL_RECORDS_MAX) {
      const oldest = this.oldestExcept(record.eventId)!;
      await this.remove(oldest);
      evicted.push(oldest);
    }
    return { evicted };
  }

  /** A later delivery status of a call: merged only into the status fields of the record already stored. */
  async saveLaterStatus(later: CallRecord): Promise<SaveResult & { record: CallRecord }> {
    const existing = await this.store.get<CallRecord>(callRecordKey(later.eventId));
    const record = existing ? mergeLaterStatus(existing, later) : later;
    return { ...(await this.save(record)), record };
  }

  /**
   * What the user said about a call (conversation, decisions, sent replies, a verdict): merged into the stored
   * record, whose status fields stay as stored.
   */
  async saveContent(
    eventId: string,
    change: Partial<Pick<CallRecord, "conversation" | "decisions" | "replies" | "verdict">>,
  ): Promise<SaveResult & { record: CallRecord | null }> {
    const existing = await this.store.get<CallRecord>(callRecordKey(eventId));
    if (!existing) return { evicted: [], record: null };
    const record = { ...existing, ...change };
    return { ...(await this.save(record)), record };
  }

  async remove(eventId: string): Promise<void> {
    await this.store.delete(callRecordKey(eventId));
    this.index.delete(eventId);
  }

  private oldestExcept(eventId: string): string | undefined {
    let oldest: [string, string] | undefined;
    for (const entry of this.index) {
      if (entry[0] === eventId) continue;
      if (!oldest || entry[1] < oldest[1] || (entry[1] === oldest[1] && entry[0] < oldest[0])) oldest = entry;
    }
    return oldest?.[0];
  }
}

/** Ids of calls answered on this device, newest last. */
export async function loadAnsweredIds(store: KeyValueStore): Promise<string[]> {
  const ids = await store.get<unknown>(ANSWERED_IDS_KEY);
  return Array.isArray(ids)
    ? ids.filter((id): id is string => typeof id === "string").slice(-ANSWERED_IDS_MAX)
    : [];
}

export async function saveAnsweredIds(store: KeyValueStore, ids: readonly string[]): Promise<void> {
  await store.set(ANSWERED_IDS_KEY, ids.slice(-ANSWERED_IDS_MAX));
}
