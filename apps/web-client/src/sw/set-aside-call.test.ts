import {
  ANSWERED_IDS_KEY,
  type CallRecord,
  callRecordKey,
  createMemoryStore,
  newCallRecord,
  SET_ASIDE_IDS_KEY,
  withStatus,
} from "@ringback/client";
import { generateKey } from "@ringback/e2e-crypto";
import type { RelayedEvent } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { payloadFor } from "../../test/fixtures.js";
import { pushedCall } from "./push-call.js";
import { setCallAside } from "./set-aside-call.js";
import { offlineFetch, pairedTestStore, testPush, testRelayedEvent } from "./worker-test-fixtures.js";

const key = generateKey();
const laterAt = new Date("2026-03-02T10:00:30.000Z");

function pairedStore() {
  return pairedTestStore(key);
}

function relayedEvent(eventId: string, sealedWith = key): Promise<RelayedEvent> {
  return testRelayedEvent(sealedWith, payloadFor({ eventId, brief: { title: "Invoice rounding" } }));
}

/** The relay as a fetch: `GET /v1/calls/<eventId>` from `events`, and a record of every request's method. */
function relayServing(events: Record<string, RelayedEvent>) {
  const requests: { method: string; url: string }[] = [];
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    requests.push({ method: init?.method ?? "GET", url });
    const event = events[decodeURIComponent(url.split("/v1/calls/")[1] ?? "")];
    return event
      ? Response.json(event)
      : Response.json({ error: { code: "call_not_found", message: "gone" } }, { status: 404 });
  }) as typeof fetch;
  return { fetchImpl, requests };
}

const push = (eventId: string) => testPush(eventId, 2);

describe("Later on a ringing call's notification", () => {
  it("stores a call this device has no record of as missed, reading it from the relay and writing nothing there", async () => {
    const store = await pairedStore();
    const relay = relayServing({ ev1: await relayedEvent("ev1") });
    expect(await setCallAside("ev1", store, relay.fetchImpl, () => laterAt)).toBe("missed");
    expect(relay.requests).toEqual([{ method: "GET", url: "https://relay.example/v1/calls/ev1" }]);
    const record = await store.get<CallRecord>(callRecordKey("ev1"));
    expect(record).toMatchObject({
      eventId: "ev1",
      learnedAt: laterAt.toISOString(),
      status: { state: "missed", missedReason: "set-aside" },
    });
    expect(record?.payload.brief.title).toBe("Invoice rounding");
  });

  it("makes the call's repeat pushes a silent missed call here instead of ringing", async () => {
    const store = await pairedStore();
    const relay = relayServing({ ev1: await relayedEvent("ev1") });
    await setCallAside("ev1", store, relay.fetchImpl, () => laterAt);
    expect(await pushedCall(push("ev1"), store, relay.fetchImpl)).toMatchObject({
      kind: "missed",
      title: "Missed call: Invoice rounding",
      actions: [],
    });
  });

  it("turns a call the page holds as ringing missed, keeping what was said about it", async () => {
    const store = await pairedStore();
    const payload = payloadFor({ eventId: "ev1" });
    const routing = { eventId: "ev1", source: "claude-code", occurredAt: payload.report.occurredAt } as const;
    const ringing = {
      ...withStatus(newCallRecord(routing, payload, laterAt), { state: "ringing" }),
      conversation: [{ role: "user", text: "Is it merged?", at: laterAt.toISOString() }],
    } satisfies CallRecord;
    await store.set(callRecordKey("ev1"), ringing);
    const relay = relayServing({});
    expect(await setCallAside("ev1", store, relay.fetchImpl)).toBe("missed");
    expect(relay.requests).toEqual([]);
    expect(await store.get(callRecordKey("ev1"))).toEqual(
      withStatus(ringing, { state: "missed", missedReason: "set-aside" }),
    );
  });

  it("leaves a call this device already settled or answered alone", async () => {
    const store = await pairedStore();
    const payload = payloadFor({ eventId: "ev1" });
    const routing = { eventId: "ev1", source: "claude-code", occurredAt: payload.report.occurredAt } as const;
    const ended = withStatus(newCallRecord(routing, payload, laterAt), {
      state: "ended",
      outcome: "answered",
    });
    await store.set(callRecordKey("ev1"), ended);
    await store.set(ANSWERED_IDS_KEY, ["ev2"]);
    const relay = relayServing({ ev2: await relayedEvent("ev2") });
    expect(await setCallAside("ev1", store, relay.fetchImpl)).toBe("settled");
    expect(await setCallAside("ev2", store, relay.fetchImpl)).toBe("settled");
    expect(await store.get(callRecordKey("ev1"))).toEqual(ended);
    expect(await store.get(callRecordKey("ev2"))).toBeUndefined();
    expect(await store.get(SET_ASIDE_IDS_KEY)).toBeUndefined();
    expect(relay.requests).toEqual([]);
  });

  it("still keeps the call from ringing here when the relay cannot give it or another key sealed it", async () => {
    const store = await pairedStore();
    expect(await setCallAside("ev1", store, offlineFetch)).toBe("set-aside");
    const foreign = relayServing({ ev2: await relayedEvent("ev2", generateKey()) });
    expect(await setCallAside("ev2", store, foreign.fetchImpl)).toBe("set-aside");
    expect(await store.get(callRecordKey("ev1"))).toBeUndefined();
    const relay = relayServing({
      ev1: await relayedEvent("ev1"),
      ev2: await relayedEvent("ev2", generateKey()),
    });
    for (const eventId of ["ev1", "ev2"]) {
      expect(await pushedCall(push(eventId), store, relay.fetchImpl)).toMatchObject({ kind: "missed" });
    }
  });

  it("does nothing more for a call the relay no longer has, or on a device that is not paired", async () => {
    const relay = relayServing({});
    expect(await setCallAside("ev1", await pairedStore(), relay.fetchImpl)).toBe("ended");
    expect(await setCallAside("ev1", createMemoryStore(), relay.fetchImpl)).toBe("unpaired");
    expect(relay.requests).toHaveLength(1);
  });
});
