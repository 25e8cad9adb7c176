import type { CallRecord, RingMode } from "@ringback/client";
import {
  ANSWERED_IDS_KEY,
  callRecordKey,
  createMemoryStore,
  FORM_OF_ADDRESS_KEY,
  IDENTITY_KEY,
  INTERFACE_LANGUAGE_KEY,
  RING_MODES_KEY,
  SET_ASIDE_IDS_KEY,
} from "@ringback/client";
import { NOTIFICATION_TEXTS } from "@ringback/client/texts";
import { generateKey } from "@ringback/e2e-crypto";
import type { RelayedEvent } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { askFor, needsYouFixture, payloadFor } from "../../test/fixtures.js";
import { ringingActions } from "./call-notification.js";
import { pushedCall } from "./push-call.js";
import {
  offlineFetch,
  pairedTestStore,
  silentFetch,
  TEST_RELAY_URL,
  testPush,
  testRelayedEvent,
} from "./worker-test-fixtures.js";

const SERVER = TEST_RELAY_URL;
const ENGLISH = NOTIFICATION_TEXTS.en;
const key = generateKey();

const push = (eventId: string) => testPush(eventId);

function pairedStore() {
  return pairedTestStore(key);
}

/** The relay's `GET /v1/calls/<eventId>` as a fetch, recording what was asked. */
function relayServing(events: Record<string, RelayedEvent>) {
  const requests: { url: string; authorization: string | null }[] = [];
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    requests.push({ url, authorization: new Headers(init?.headers).get("Authorization") });
    const eventId = decodeURIComponent(url.split("/v1/calls/")[1] ?? "");
    const event = events[eventId];
    return event
      ? Response.json(event)
      : Response.json({ error: { code: "call_not_found", message: "gone" } }, { status: 404 });
  }) as typeof fetch;
  return { fetchImpl, requests };
}

async function relayedEvent(
  eventId: string,
  sealedWith = key,
  brief = {},
  projectName?: string,
): Promise<RelayedEvent> {
  return testRelayedEvent(sealedWith, payloadFor({ eventId, brief, projectName }));
}

describe("a pushed call in the service worker", () => {
  it("fetches the sealed event with the device's token, opens it, and shows the brief's title and first sentence", async () => {
    const store = await pairedStore();
    await store.set(FORM_OF_ADDRESS_KEY, "Captain");
    const relay = relayServing({
      ev1: await relayedEvent("ev1", key, {
        title: "Billing refactor",
        spoken: "{{address}}, billing is done. Two tests were added.",
      }),
    });
    const call = await pushedCall(push("ev1"), store, relay.fetchImpl);
    expect(call).toEqual({
      kind: "show",
      eventId: "ev1",
      title: "Billing refactor",
      body: "Captain, billing is done.",
      tag: "ringback-call-ev1",
      actions: [
        { action: "answer", title: "Answer" },
        { action: "later", title: "Later" },
      ],
    });
    expect(relay.requests).toEqual([{ url: `${SERVER}/v1/calls/ev1`, authorization: "Bearer token-phone" }]);
  });

  it("opens a call a declarative push carries sealed, offline: the relay is not asked", async () => {
    const store = await pairedStore();
    const carried = await relayedEvent("ev1", key, {
      title: "Billing refactor",
      spoken: "Billing is done. Tests pass.",
    });
    const declarative = {
      web_push: 8030,
      notification: {
        title: "A call from Ringback",
        body: "Open Ringback to hear it.",
        navigate: "https://ring.sample.dev/#call=ev1",
        tag: "ringback-call-ev1",
        silent: false,
        requireInteraction: true,
        data: { ...push("ev1"), sealed: carried.sealed },
      },
      mutable: true,
    };
    const call = await pushedCall(declarative, store, offlineFetch);
    expect(call).toMatchObject({
      kind: "show",
      eventId: "ev1",
      title: "Billing refactor",
      body: "Billing is done.",
    });
  });

  it("rings a call carried sealed with another key without its brief", async () => {
    const store = await pairedStore();
    const carried = await relayedEvent("ev1", generateKey());
    const call = await pushedCall({ ...push("ev1"), sealed: carried.sealed }, store, offlineFetch);
    expect(call).toMatchObject({
      kind: "show",
      title: ENGLISH.genericCallTitle,
      body: ENGLISH.genericCallBody,
    });
  });

  it("shows a call raised before this device joined as missed, never ringing, and stores it so", async () => {
    const store = await pairedStore();
    const identity = await store.get<Record<string, unknown>>(IDENTITY_KEY);
    // The relay's repeat push of a call raised at 10:00:00, to a device that joined a minute later.
    await store.set(IDENTITY_KEY, { ...identity, joinedAt: "2026-03-02T10:01:00.000Z" });
    const relay = relayServing({ ev1: await relayedEvent("ev1", key, { title: "Billing refactor" }) });
    const call = await pushedCall(push("ev1"), store, relay.fetchImpl);
    expect(call).toMatchObject({ kind: "missed", title: "Missed call: Billing refactor", actions: [] });
    expect((await store.get<CallRecord>(callRecordKey("ev1")))?.status).toMatchObject({
      state: "missed",
      missedReason: "before-joining",
    });
    // Once it has joined, a call rings as before.
    await store.set(IDENTITY_KEY, { ...identity, joinedAt: "2026-03-02T09:59:00.000Z" });
    const later = relayServing({ ev2: await relayedEvent("ev2", key, { title: "Cache warm-up" }) });
    expect(await pushedCall(push("ev2"), store, later.fetchImpl)).toMatchObject({ kind: "show" });
  });

  it("shows a needs-you call whose agent stopped waiting as missed, never ringing, and rings one that still waits", async () => {
    const store = await pairedStore();
    const asking = async (eventId: string, expiresAt: Date): Promise<RelayedEvent> => {
      const occurredAt = new Date(expiresAt.getTime() - 60_000);
      const payload = payloadFor(
        needsYouFixture(eventId, occurredAt, askFor(occurredAt, { expiresAt: expiresAt.toISOString() })),
      );
      return { ...(await testRelayedEvent(key, payload)), occurredAt: occurredAt.toISOString() };
    };
    const now = new Date();
    const relay = relayServing({
      needs_gone: await asking("needs_gone", new Date(now.getTime() - 1_000)),
      needs_waits: await asking("needs_waits", new Date(now.getTime() + 60_000)),
    });
    const gone = await pushedCall(push("needs_gone"), store, relay.fetchImpl, () => now);
    expect(gone).toMatchObject({
      kind: "missed",
      title: "Missed call: Claude Code needs you: run a command",
    });
    expect((await store.get<CallRecord>(callRecordKey("needs_gone")))?.status).toMatchObject({
      state: "missed",
      missedReason: "stopped-waiting",
    });
    expect(await pushedCall(push("needs_waits"), store, relay.fetchImpl, () => now)).toMatchObject({
      kind: "show",
    });
  });

  it("names a tracker call's project before the brief's title, as the calls page names the project", async () => {
    const store = await pairedStore();
    const relay = relayServing({
      ev1: await relayedEvent("ev1", key, { title: "Invoice rounding" }, "Billing"),
    });
    expect(await pushedCall(push("ev1"), store, relay.fetchImpl)).toMatchObject({
      kind: "show",
      title: "Billing · Invoice rounding",
    });
  });

  it("names no project for a local agent's call: its folder is not a project on the calls page either", async () => {
    const store = await pairedStore();
    const relay = relayServing({ ev1: await relayedEvent("ev1", key, { title: "Invoice rounding" }) });
    expect(await pushedCall(push("ev1"), store, relay.fetchImpl)).toMatchObject({
      title: "Invoice rounding",
    });
  });

  it("frames the project and offers the actions in the device's interface language", async () => {
    const store = await pairedStore();
    await store.set(INTERFACE_LANGUAGE_KEY, "zh");
    const relay = relayServing({
      ev1: await relayedEvent("ev1", key, { title: "Invoice rounding" }, "Billing"),
    });
    expect(await pushedCall(push("ev1"), store, relay.fetchImpl, undefined, ["en-US"])).toMatchObject({
      kind: "show",
      title: "【Billing】Invoice rounding",
      actions: [
        { action: "answer", title: "接听" },
        { action: "later", title: "稍后" },
      ],
    });
  });

  it("never rings a call set aside here with Later, even without its record, and stores nothing", async () => {
    const store = await pairedStore();
    await store.set(SET_ASIDE_IDS_KEY, ["ev1"]);
    const relay = relayServing({ ev1: await relayedEvent("ev1", key, { title: "Invoice rounding" }) });
    expect(await pushedCall(push("ev1"), store, relay.fetchImpl)).toMatchObject({
      kind: "missed",
      title: "Missed call: Invoice rounding",
      actions: [],
    });
    expect(await pushedCall(push("ev1"), store, offlineFetch)).toMatchObject({ kind: "missed", actions: [] });
    expect(await store.get(callRecordKey("ev1"))).toBeUndefined();
  });

  it("uses the report's first sentence when the brief failed", async () => {
    const store = await pairedStore();
    const relay = relayServing({ ev1: await relayedEvent("ev1", key, { spoken: "" }) });
    const call = await pushedCall(push("ev1"), store, relay.fetchImpl);
    expect(call).toMatchObject({ kind: "show", body: "Finished ev1." });
  });

  it("rings without the brief when the call was sealed with another key", async () => {
    const store = await pairedStore();
    const relay = relayServing({ ev1: await relayedEvent("ev1", generateKey()) });
    expect(await pushedCall(push("ev1"), store, relay.fetchImpl)).toEqual({
      kind: "show",
      eventId: "ev1",
      title: ENGLISH.genericCallTitle,
      body: ENGLISH.genericCallBody,
      tag: "ringback-call-ev1",
      actions: ringingActions(ENGLISH),
    });
  });

  it("rings without the brief when the relay cannot be reached", async () => {
    const store = await pairedStore();
    expect(await pushedCall(push("ev1"), store, offlineFetch)).toMatchObject({
      kind: "show",
      title: ENGLISH.genericCallTitle,
    });
  });

  it("rings without the brief when the relay does not answer in time", async () => {
    const store = await pairedStore();
    const { fetchImpl: silent, signals } = silentFetch();
    expect(await pushedCall(push("ev1"), store, silent, undefined, [], 50)).toMatchObject({
      kind: "show",
      title: ENGLISH.genericCallTitle,
    });
    expect(signals.map((signal) => signal.aborted)).toEqual([true]);
  });

  it("stays quiet for a call that already ended, one answered here, or an unpaired device", async () => {
    const store = await pairedStore();
    const relay = relayServing({});
    expect(await pushedCall(push("gone"), store, relay.fetchImpl)).toMatchObject({
      kind: "quiet",
      reason: "ended",
    });
    await store.set(ANSWERED_IDS_KEY, ["ev1"]);
    expect(await pushedCall(push("ev1"), store, relay.fetchImpl)).toMatchObject({
      kind: "quiet",
      reason: "answered-here",
    });
    expect(await pushedCall(push("ev1"), createMemoryStore(), relay.fetchImpl)).toMatchObject({
      kind: "quiet",
      reason: "unpaired",
    });
  });

  it("shows a plain call for a push it cannot read", async () => {
    const store = await pairedStore();
    const relay = relayServing({});
    expect(await pushedCall({ type: "call" }, store, relay.fetchImpl)).toMatchObject({
      kind: "show",
      eventId: null,
      title: ENGLISH.genericCallTitle,
    });
    expect(relay.requests).toEqual([]);
  });

  describe("while the ring modes do not allow ringing", () => {
    const neverRing: RingMode = {
      id: "never",
      name: "Never",
      preset: null,
      ranges: [{ start: "00:00", end: "00:00" }],
      repeat: [0, 1, 2, 3, 4, 5, 6],
      rule: "do-not-ring-in",
      on: true,
    };
    const arrival = new Date("2026-03-02T10:00:05.000Z");

    it("shows a silent missed call instead of ringing and stores the call as missed for the page", async () => {
      const store = await pairedStore();
      await store.set(RING_MODES_KEY, [neverRing]);
      const relay = relayServing({
        ev1: await relayedEvent("ev1", key, {
          title: "Billing refactor",
          spoken: "Billing is done. Tests pass.",
        }),
      });
      const call = await pushedCall(push("ev1"), store, relay.fetchImpl, () => arrival);
      expect(call).toEqual({
        kind: "missed",
        eventId: "ev1",
        title: "Missed call: Billing refactor",
        body: "Billing is done.",
        tag: "ringback-call-ev1",
        actions: [],
      });
      const record = await store.get<CallRecord>(callRecordKey("ev1"));
      expect(record).toMatchObject({
        eventId: "ev1",
        source: "claude-code",
        occurredAt: "2026-03-02T10:00:00.000Z",
        learnedAt: arrival.toISOString(),
        fromDeviceId: "dev_pc",
        status: { state: "missed", missedReason: "outside-ringing-period", shownAt: null },
      });
      expect(record?.payload.brief.title).toBe("Billing refactor");
    });

    it("names the tracker project in the missed call's title too", async () => {
      const store = await pairedStore();
      await store.set(RING_MODES_KEY, [neverRing]);
      const relay = relayServing({
        ev1: await relayedEvent("ev1", key, { title: "Nightly export" }, "Data"),
      });
      expect(await pushedCall(push("ev1"), store, relay.fetchImpl, () => arrival)).toMatchObject({
        kind: "missed",
        title: "Missed call: Data · Nightly export",
      });
    });

    it("keeps a missed call missed on a repeat push once ringing is allowed again, without rewriting it", async () => {
      const store = await pairedStore();
      await store.set(RING_MODES_KEY, [neverRing]);
      const relay = relayServing({ ev1: await relayedEvent("ev1", key, { title: "Billing refactor" }) });
      await pushedCall(push("ev1"), store, relay.fetchImpl, () => arrival);
      const stored = await store.get<CallRecord>(callRecordKey("ev1"));
      await store.set(RING_MODES_KEY, []);
      const later = new Date(arrival.getTime() + 60_000);
      expect(
        await pushedCall({ ...push("ev1"), attempt: 2 }, store, relay.fetchImpl, () => later),
      ).toMatchObject({
        kind: "missed",
        title: "Missed call: Billing refactor",
      });
      expect(await store.get<CallRecord>(callRecordKey("ev1"))).toEqual(stored);
    });

    it("shows a plain missed call without storing anything when the relay cannot be reached", async () => {
      const store = await pairedStore();
      await store.set(RING_MODES_KEY, [neverRing]);
      expect(await pushedCall(push("ev1"), store, offlineFetch, () => arrival)).toEqual({
        kind: "missed",
        eventId: "ev1",
        title: "Missed call: Ringback",
        body: ENGLISH.genericCallBody,
        tag: "ringback-call-ev1",
        actions: [],
      });
      expect(await store.get(callRecordKey("ev1"))).toBeUndefined();
    });

    it("titles the missed call in the device's interface language, the brief's title and sentence untranslated", async () => {
      const store = await pairedStore();
      await store.set(RING_MODES_KEY, [neverRing]);
      await store.set(INTERFACE_LANGUAGE_KEY, "zh");
      const relay = relayServing({
        ev1: await relayedEvent("ev1", key, {
          title: "Billing refactor",
          spoken: "Billing is done. Tests pass.",
        }),
      });
      expect(await pushedCall(push("ev1"), store, relay.fetchImpl, () => arrival, ["en-US"])).toEqual({
        kind: "missed",
        eventId: "ev1",
        title: "未接来电：Billing refactor",
        body: "Billing is done.",
        tag: "ringback-call-ev1",
        actions: [],
      });
    });

    it("shows the plain missed call in Chinese when the interface follows a Chinese system", async () => {
      const store = await pairedStore();
      await store.set(RING_MODES_KEY, [neverRing]);
      expect(await pushedCall(push("ev1"), store, offlineFetch, () => arrival, ["zh-CN", "en-US"])).toEqual({
        kind: "missed",
        eventId: "ev1",
        title: "未接来电：Ringback",
        body: "你的智能体已完成工作。打开 Ringback 接听来电。",
        tag: "ringback-call-ev1",
        actions: [],
      });
    });

    it("stays quiet for a call this device already ended, whatever the relay still says", async () => {
      const store = await pairedStore();
      const relay = relayServing({ ev1: await relayedEvent("ev1") });
      const ended = { eventId: "ev1", status: { state: "ended" } };
      await store.set(callRecordKey("ev1"), ended);
      expect(await pushedCall(push("ev1"), store, relay.fetchImpl)).toEqual({
        kind: "quiet",
        eventId: "ev1",
        reason: "settled-here",
      });
    });
  });
});
