import { ANSWERED_IDS_MAX, CALL_RECORDS_MAX } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { recordFor, secondsAfter, T0 } from "../../test/fixtures.js";
import type { CallRecord } from "../calls/call-record.js";
import { CallRecordsStore, loadAnsweredIds, saveAnsweredIds } from "./call-records.js";
import { createMemoryStore } from "./memory-key-value.js";

function learnedAt(record: CallRecord, seconds: number): CallRecord {
  return { ...record, learnedAt: secondsAfter(T0, seconds).toISOString() };
}

describe("call records", () => {
  it("stores each call as call.<eventId>", async () => {
    const store = createMemoryStore();
    await new CallRecordsStore(store).save(recordFor({ eventId: "e1" }));
    expect(await store.keys()).toEqual(["call.e1"]);
  });

  it(`keeps at most ${CALL_RECORDS_MAX}, deleting the oldest first`, async () => {
    const store = createMemoryStore();
    const records = new CallRecordsStore(store);
    for (let index = 0; index < CALL_RECORDS_MAX; index++) {
      await records.save(learnedAt(recordFor({ eventId: `e${index}` }), index));
    }
    const result = await records.save(learnedAt(recordFor({ eventId: "newest" }), CALL_RECORDS_MAX));
    expect(result.evicted).toEqual(["e0"]);
    const reloaded = await new CallRecordsStore(store).loadAll();
    expect(reloaded).toHaveLength(CALL_RECORDS_MAX);
    expect(reloaded.map((record) => record.eventId)).toContain("newest");
  });

  it("deletes the oldest records first when storage is full, until the new one fits", async () => {
    const sample = learnedAt(recordFor({ eventId: "e0" }), 0);
    const recordBytes = JSON.stringify(sample).length + "call.e0".length;
    const store = createMemoryStore({ capacityBytes: recordBytes * 3 + 10 });
    const records = new CallRecordsStore(store);
    for (let index = 0; index < 3; index++)
      await records.save(learnedAt(recordFor({ eventId: `e${index}` }), index));
    const result = await records.save(learnedAt(recordFor({ eventId: "e3" }), 3));
    expect(result.evicted).toEqual(["e0"]);
    expect((await store.keys()).sort()).toEqual(["call.e1", "call.e2", "call.e3"]);
  });

  it("gives up with the storage error when nothing else is left to delete", async () => {
    const records = new CallRecordsStore(createMemoryStore({ capacityBytes: 10 }));
    await expect(records.save(recordFor({ eventId: "e1" }))).rejects.toMatchObject({
      name: "QuotaExceededError",
    });
  });

  it("merges a later delivery status only into the status fields", async () => {
    const store = createMemoryStore();
    const records = new CallRecordsStore(store);
    const stored: CallRecord = {
      ...recordFor({ eventId: "e1" }, { state: "ended", outcome: "answered" }),
      conversation: [{ role: "user", text: "Did the tests pass?", at: T0.toISOString() }],
      decisions: [{ text: "Ship it.", at: T0.toISOString() }],
      status: {
        ...recordFor({ eventId: "e1" }, { state: "ended", outcome: "answered" }).status,
        replyDeliveries: { r1: { status: "queued", reason: null, at: T0.toISOString() } },
      },
    };
    await records.save(stored);
    const stale = recordFor(
      { eventId: "e1", text: "a different text" },
      { state: "ended", outcome: "answered" },
    );
    const later: CallRecord = {
      ...stale,
      status: {
        ...stale.status,
        replyDeliveries: { r2: { status: "delivered", reason: null, at: T0.toISOString() } },
      },
    };
    const { record: merged } = await records.saveLaterStatus(later);
    expect(merged.payload.report.text).toBe(stored.payload.report.text);
    expect(merged.conversation).toEqual(stored.conversation);
    expect(merged.decisions).toEqual(stored.decisions);
    expect(Object.keys(merged.status.replyDeliveries).sort()).toEqual(["r1", "r2"]);
    expect(await store.get("call.e1")).toEqual(merged);
  });
});

describe("answered ids", () => {
  it(`keeps at most ${ANSWERED_IDS_MAX}, the newest`, async () => {
    const store = createMemoryStore();
    await saveAnsweredIds(
      store,
      Array.from({ length: ANSWERED_IDS_MAX + 50 }, (_, index) => `e${index}`),
    );
    const ids = await loadAnsweredIds(store);
    expect(ids).toHaveLength(ANSWERED_IDS_MAX);
    expect(ids[0]).toBe("e50");
  });
});
