import { CALL_RECORDS_MAX } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { recordFor, secondsAfter, T0 } from "../../test/fixtures.js";
import { type CallAction, type CallsModel, reduceCalls } from "../calls/call-machine.js";
import type { CallRecord } from "../calls/call-record.js";
import { ALWAYS_RING } from "../ring-schedule/ring-schedule.js";
import type { KeyValueStore } from "../storage/key-value.js";
import { createMemoryStore } from "../storage/memory-key-value.js";
import { callRecordKey } from "../storage/storage-keys.js";
import { CallPersistence } from "./call-persistence.js";

/** The calls of one device over a store: each action reduced, then saved as the call center saves it. */
async function calls(store: KeyValueStore) {
  const evicted: string[] = [];
  const persistence = new CallPersistence(store, (eventIds) => evicted.push(...eventIds));
  let model: CallsModel = await persistence.load();
  return {
    evicted,
    get model() {
      return model;
    },
    async apply(action: CallAction): Promise<void> {
      const before = model;
      model = reduceCalls(before, action, { now: T0, schedule: ALWAYS_RING, deviceId: "phone" }).model;
      persistence.save(action, before, model);
      await persistence.persisted();
    },
  };
}

const stored = (store: KeyValueStore, eventId: string) => store.get<CallRecord>(callRecordKey(eventId));

describe("the call records' persistence", () => {
  it("merges a status change into the stored record, keeping what another context wrote meanwhile", async () => {
    const store = createMemoryStore();
    await store.set(callRecordKey("e1"), recordFor({ eventId: "e1" }, { state: "ringing" }));
    const device = await calls(store);
    const conversation = [{ role: "user" as const, text: "Which tests?", at: T0.toISOString() }];
    await store.set(callRecordKey("e1"), { ...(await stored(store, "e1")), conversation });
    await device.apply({ type: "ring-shown", eventId: "e1" });
    expect(await stored(store, "e1")).toMatchObject({ conversation, status: { shownAt: T0.toISOString() } });
  });

  it("merges a content change into the stored record, its stored status kept", async () => {
    const store = createMemoryStore();
    await store.set(callRecordKey("e1"), recordFor({ eventId: "e1" }, { state: "in-call" }));
    const device = await calls(store);
    // The service worker stored the call missed meanwhile.
    const missed = recordFor({ eventId: "e1" }, { state: "missed", missedReason: "set-aside" });
    await store.set(callRecordKey("e1"), missed);
    const decisions = [{ text: "Ship it.", at: T0.toISOString() }];
    await device.apply({ type: "content-changed", eventId: "e1", change: { decisions } });
    expect(await stored(store, "e1")).toEqual({ ...missed, decisions });
  });

  it("stores a sent reply with its delivery status", async () => {
    const store = createMemoryStore();
    await store.set(
      callRecordKey("e1"),
      recordFor({ eventId: "e1" }, { state: "ended", outcome: "answered" }),
    );
    const device = await calls(store);
    await device.apply({
      type: "reply-sent",
      eventId: "e1",
      replyId: "r1",
      text: "Ship it.",
      status: "queued",
    });
    expect(await stored(store, "e1")).toMatchObject({
      replies: [{ replyId: "r1", text: "Ship it.", sentAt: T0.toISOString() }],
      status: { replyDeliveries: { r1: { status: "queued", reason: null, at: T0.toISOString() } } },
    });
  });

  it("stores a refreshed issue", async () => {
    const store = createMemoryStore();
    await store.set(callRecordKey("e1"), recordFor({ eventId: "e1", priority: "low" }, { state: "missed" }));
    const device = await calls(store);
    const updatedAt = secondsAfter(T0, 60).toISOString();
    await device.apply({
      type: "issues-refreshed",
      refreshes: [
        {
          workspaceId: "ws1",
          issueId: "issue-e1",
          projectId: null,
          projectName: null,
          priority: "high",
          updatedAt,
        },
      ],
    });
    expect((await stored(store, "e1"))?.issue).toMatchObject({ priority: "high", updatedAt });
  });

  it("tells which records storage deleted to make room, and writes nothing when they leave memory", async () => {
    const store = createMemoryStore();
    for (let index = 0; index < CALL_RECORDS_MAX; index++) {
      const learnedAt = secondsAfter(T0, index - CALL_RECORDS_MAX).toISOString();
      await store.set(callRecordKey(`old${index}`), { ...recordFor({ eventId: `old${index}` }), learnedAt });
    }
    const device = await calls(store);
    await device.apply({
      type: "report-received",
      routing: { eventId: "new", source: "claude-code", occurredAt: T0.toISOString() },
      payload: recordFor({ eventId: "new" }).payload,
    });
    expect(device.evicted).toEqual(["old0"]);
    const keys = await store.keys();
    await device.apply({ type: "records-evicted", eventIds: device.evicted });
    expect(device.model.records.old0).toBeUndefined();
    expect(await store.keys()).toEqual(keys);
  });
});
