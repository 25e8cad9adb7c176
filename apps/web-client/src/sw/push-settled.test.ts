import type { CallRecord, CallStatusFields } from "@ringback/client";
import { ANSWERED_IDS_KEY, callRecordKey, createMemoryStore } from "@ringback/client";
import type { PushMessage } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { recordFor, secondsAfter, T0 } from "../../test/fixtures.js";
import { pushedCall } from "./push-call.js";
import { pairedTestStore } from "./worker-test-fixtures.js";

const SETTLED_AT = secondsAfter(T0, 90);

function settled(eventId: string, status: "answered" | "acknowledged" | "ended" | "expired"): PushMessage {
  return { type: "call-settled", eventId, status };
}

/** A fetch that records each request: a settled push must not need the relay. */
function recordingFetch() {
  const urls: string[] = [];
  const fetchImpl = (async (input: RequestInfo | URL) => {
    urls.push(String(input));
    return Response.json({ error: { code: "call_not_found", message: "gone" } }, { status: 404 });
  }) as typeof fetch;
  return { fetchImpl, urls };
}

async function storeWith(status: Partial<CallStatusFields>) {
  const store = await pairedTestStore();
  const record: CallRecord = {
    ...recordFor({ eventId: "ev1" }, status),
    conversation: [{ role: "user", text: "What changed?", at: T0.toISOString() }],
  };
  await store.set(callRecordKey("ev1"), record);
  return { store, record };
}

describe("a call-settled push in the service worker", () => {
  it("shows nothing, asks the relay nothing, and ends a missed call answered elsewhere, keeping the conversation", async () => {
    const { store, record } = await storeWith({ state: "missed", missedReason: "outside-ringing-period" });
    const relay = recordingFetch();
    expect(await pushedCall(settled("ev1", "answered"), store, relay.fetchImpl, () => SETTLED_AT)).toEqual({
      kind: "quiet",
      eventId: "ev1",
      reason: "settled-elsewhere",
    });
    expect(relay.urls).toEqual([]);
    expect(await store.get<CallRecord>(callRecordKey("ev1"))).toEqual({
      ...record,
      status: {
        ...record.status,
        state: "ended",
        outcome: "answered-elsewhere",
        endedAt: SETTLED_AT.toISOString(),
      },
    });
  });

  it("acknowledges a missed call acknowledged elsewhere, as the page would", async () => {
    const { store } = await storeWith({ state: "missed", missedReason: "outside-ringing-period" });
    await pushedCall(settled("ev1", "acknowledged"), store, recordingFetch().fetchImpl, () => SETTLED_AT);
    expect((await store.get<CallRecord>(callRecordKey("ev1")))?.status).toMatchObject({
      state: "acknowledged",
      outcome: "acknowledged-elsewhere",
    });
  });

  it("ends a call the page left waiting when it was closed", async () => {
    const { store } = await storeWith({ state: "queued" });
    await pushedCall(settled("ev1", "ended"), store, recordingFetch().fetchImpl, () => SETTLED_AT);
    expect((await store.get<CallRecord>(callRecordKey("ev1")))?.status).toMatchObject({
      state: "ended",
      outcome: "ended-elsewhere",
    });
  });

  it("leaves a missed call missed when it expired, and a call answered here as it is", async () => {
    const missed = await storeWith({ state: "missed", missedReason: "outside-ringing-period" });
    await pushedCall(settled("ev1", "expired"), missed.store, recordingFetch().fetchImpl, () => SETTLED_AT);
    expect(await missed.store.get(callRecordKey("ev1"))).toEqual(missed.record);

    const answered = await storeWith({ state: "in-call", answeredAt: T0.toISOString() });
    await answered.store.set(ANSWERED_IDS_KEY, ["ev1"]);
    await pushedCall(
      settled("ev1", "answered"),
      answered.store,
      recordingFetch().fetchImpl,
      () => SETTLED_AT,
    );
    expect(await answered.store.get(callRecordKey("ev1"))).toEqual(answered.record);
  });

  it("writes no record for a call this device never kept", async () => {
    const store = await pairedTestStore();
    expect(await pushedCall(settled("ev2", "answered"), store, recordingFetch().fetchImpl)).toMatchObject({
      kind: "quiet",
      eventId: "ev2",
    });
    expect(await store.keys()).not.toContain(callRecordKey("ev2"));
  });

  it("stays quiet on a device that is no longer paired", async () => {
    expect(
      await pushedCall(settled("ev1", "ended"), createMemoryStore(), recordingFetch().fetchImpl),
    ).toEqual({
      kind: "quiet",
      eventId: "ev1",
      reason: "unpaired",
    });
  });
});
