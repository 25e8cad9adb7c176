import type { CallDelivery, CallStatusChange, RelayedEvent, RelayedFleetState } from "@ringback/protocol";
import { eventually } from "@ringback/test-kit";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import {
  type FakeRelayStream,
  openSse,
  sendSse,
  startFakeRelayStream,
} from "../../test/fake-relay-stream.js";
import { PLATFORM_TIMERS, type Timers } from "../runtime/timers.js";
import { CallStream, type CallStreamHandlers, type SyncedContext } from "./call-stream.js";

const TOKEN = "device-token-secret";

function relayedEvent(eventId: string, seq: number): RelayedEvent {
  return {
    seq,
    eventId,
    source: "claude-code",
    occurredAt: "2026-03-02T10:00:00.000Z",
    receivedAt: "2026-03-02T10:00:01.000Z",
    taskId: null,
    fromDeviceId: "computer-1",
    sealed: "e2e1.0011223344556677.aaaa.bbbb",
    status: "pending",
  };
}

function statusChange(eventId: string, seq: number): CallStatusChange {
  return { seq, eventId, status: "answered", deviceId: "laptop", at: "2026-03-02T10:00:05.000Z" };
}

function deliveryOf(eventId: string, seq: number): CallDelivery {
  return {
    seq,
    eventId,
    deviceId: "phone",
    deviceName: "Phone",
    outcome: "shown",
    at: "2026-03-02T10:00:03.000Z",
  };
}

function recorder() {
  const log: string[] = [];
  const synced: SyncedContext[] = [];
  const removed = vi.fn();
  const handlers: CallStreamHandlers = {
    // A handler that finishes a turn of the event loop later: the next event must still wait for it.
    onCall: async (event) => {
      await new Promise((resolve) => setImmediate(resolve));
      log.push(`call ${event.eventId}`);
    },
    onCallStatus: (change) => {
      log.push(`status ${change.eventId} ${change.status}`);
    },
    onCallDelivery: (delivery) => {
      log.push(`delivery ${delivery.eventId} ${delivery.deviceName} ${delivery.outcome}`);
    },
    onSynced: (context) => {
      synced.push(context);
    },
    onLastEventId: (id) => {
      log.push(`id ${id}`);
    },
    onDeviceRemoved: removed,
  };
  return { log, synced, removed, handlers };
}

describe("call stream", () => {
  let relay: FakeRelayStream;
  let stream: CallStream | undefined;

  beforeEach(async () => {
    relay = await startFakeRelayStream();
  });

  afterEach(async () => {
    stream?.close();
    await relay.close();
  });

  /** A stream from no last id, started, its first request answered as an open SSE stream. */
  async function openStream() {
    const recorded = recorder();
    stream = new CallStream({
      serverUrl: relay.origin,
      deviceToken: TOKEN,
      lastEventId: null,
      handlers: recorded.handlers,
    });
    stream.start();
    const first = await relay.request(0);
    openSse(first.response);
    return { ...recorded, first };
  }

  it("sends the device token, and hands events over in stream order after each one is handled", async () => {
    const { log, synced, first } = await openStream();
    expect(first.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(first.headers["last-event-id"]).toBeUndefined();
    sendSse(first.response, "call", relayedEvent("e1", 1), 1);
    sendSse(first.response, "call-status", statusChange("e1", 2), 2);
    sendSse(first.response, "synced", { seq: 2 }, 2);
    await eventually(() => synced.length === 1);
    expect(log).toEqual(["call e1", "id 1", "status e1 answered", "id 2", "id 2"]);
    expect(synced[0]).toEqual({ resumedFrom: null, backlogEventIds: ["e1"] });
  });

  it("hands call-delivery frames over in stream order, after the call they belong to, keeping their ids", async () => {
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { log, synced, first } = await openStream();
    sendSse(first.response, "call", relayedEvent("e1", 1), 1);
    sendSse(first.response, "call-delivery", deliveryOf("e1", 2), 2);
    // Not a delivery outcome: skipped like any frame the page cannot read.
    sendSse(first.response, "call-delivery", { seq: 3, eventId: "e1", outcome: "rang" }, 3);
    sendSse(first.response, "synced", { seq: 3 }, 3);
    await eventually(() => synced.length === 1);
    expect(consoleError).toHaveBeenCalledOnce();
    consoleError.mockRestore();
    expect(log).toEqual(["call e1", "id 1", "delivery e1 Phone shown", "id 2", "id 3"]);
    expect(synced[0]).toEqual({ resumedFrom: null, backlogEventIds: ["e1"] });
  });

  it("resumes with Last-Event-ID of the last handled event after the stream drops", async () => {
    const { synced, handlers } = recorder();
    stream = new CallStream({ serverUrl: relay.origin, deviceToken: TOKEN, lastEventId: "7", handlers });
    stream.start();
    const first = await relay.request(0);
    expect(first.headers["last-event-id"]).toBe("7");
    openSse(first.response);
    sendSse(first.response, "call", relayedEvent("e8", 8), 8);
    sendSse(first.response, "synced", { seq: 8 }, 8);
    await eventually(() => synced.length === 1);
    first.response.end();
    const second = await relay.request(1);
    expect(second.headers["last-event-id"]).toBe("8");
    expect(second.headers.authorization).toBe(`Bearer ${TOKEN}`);
    openSse(second.response);
    sendSse(second.response, "synced", { seq: 8 }, 8);
    await eventually(() => synced.length === 2);
    expect(synced[1]).toEqual({ resumedFrom: "8", backlogEventIds: [] });
  });

  it("hands each computer's fleet state over after synced and live, again after a reconnect, without moving the resume id", async () => {
    const fleet: RelayedFleetState[] = [];
    const calls: RelayedEvent[] = [];
    const { log, synced, handlers } = recorder();
    stream = new CallStream({
      serverUrl: relay.origin,
      deviceToken: TOKEN,
      lastEventId: null,
      handlers: {
        ...handlers,
        onCall: (event) => {
          calls.push(event);
        },
        onFleet: (state) => {
          fleet.push(state);
        },
      },
    });
    stream.start();
    const state = (computerId: string, sealed: string): RelayedFleetState => ({
      computerId,
      sealed,
      receivedAt: "2026-03-02T10:00:00.000Z",
    });
    const first = await relay.request(0);
    openSse(first.response);
    sendSse(first.response, "call", { ...relayedEvent("quiet1", 1), ring: "quiet" }, 1);
    sendSse(first.response, "synced", { seq: 1 }, 1);
    sendSse(first.response, "fleet", state("laptop", "e2e1.0011223344556677.aaaa.v1"));
    sendSse(first.response, "fleet", state("desktop", "e2e1.0011223344556677.aaaa.d1"));
    sendSse(first.response, "fleet", state("laptop", "e2e1.0011223344556677.aaaa.v2"));
    await eventually(() => fleet.length === 3);
    expect(fleet.map((received) => `${received.computerId} ${received.sealed.slice(-2)}`)).toEqual([
      "laptop v1",
      "desktop d1",
      "laptop v2",
    ]);
    expect(calls[0]?.ring).toBe("quiet");
    expect(stream.lastEventId).toBe("1");
    expect(log.filter((line) => line.startsWith("id "))).toEqual(["id 1", "id 1"]);

    first.response.end();
    const second = await relay.request(1);
    expect(second.headers["last-event-id"]).toBe("1");
    openSse(second.response);
    sendSse(second.response, "synced", { seq: 1 }, 1);
    sendSse(second.response, "fleet", state("laptop", "e2e1.0011223344556677.aaaa.v2"));
    await eventually(() => fleet.length === 4 && synced.length === 2);
    expect(fleet[3]?.sealed.endsWith("v2")).toBe(true);
    expect(stream.lastEventId).toBe("1");
  });

  it("stops reconnecting on 401 and reports the device removed", async () => {
    const { removed, handlers } = recorder();
    // A reconnect is only ever a timeout on these timers: none set, none to come.
    const timeouts: number[] = [];
    stream = new CallStream({
      serverUrl: relay.origin,
      deviceToken: TOKEN,
      lastEventId: null,
      handlers,
      reconnectDelaysMs: [10],
      timers: {
        ...PLATFORM_TIMERS,
        setTimeout: (callback, delayMs) => {
          timeouts.push(delayMs);
          return PLATFORM_TIMERS.setTimeout(callback, delayMs);
        },
      },
    });
    stream.start();
    (await relay.request(0)).response
      .writeHead(401, { "Content-Type": "application/json" })
      .end(JSON.stringify({ error: { code: "device_removed", message: "removed" } }));
    await eventually(() => removed.mock.calls.length === 1);
    expect(timeouts).toEqual([]);
    expect(relay.requests).toHaveLength(1);
  });

  it("reports the device removed when the relay says so on the stream", async () => {
    const { removed, first } = await openStream();
    sendSse(first.response, "device-removed", { deviceId: "me" });
    await eventually(() => removed.mock.calls.length === 1);
  });

  it("tries again with backoff when the relay refuses the stream with a 5xx", async () => {
    const { synced, handlers } = recorder();
    stream = new CallStream({
      serverUrl: relay.origin,
      deviceToken: TOKEN,
      lastEventId: null,
      handlers,
      reconnectDelaysMs: [10, 20],
    });
    stream.start();
    (await relay.request(0)).response.writeHead(503).end();
    (await relay.request(1)).response.writeHead(502).end();
    const third = await relay.request(2);
    openSse(third.response);
    sendSse(third.response, "synced", { seq: 0 }, 0);
    await eventually(() => synced.length === 1);
  });

  it("reconnects when the stream stays silent longer than the limit", async () => {
    const { handlers } = recorder();
    stream = new CallStream({
      serverUrl: relay.origin,
      deviceToken: TOKEN,
      lastEventId: null,
      handlers,
      silenceLimitMs: 150,
    });
    stream.start();
    openSse((await relay.request(0)).response);
    const second = await relay.request(1);
    expect(second.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("runs its silence watchdog and reconnect backoff on the timers and clock it is given", async () => {
    const { handlers } = recorder();
    const connections: string[] = [];
    let now = 1_000_000;
    const intervals: { callback: () => void; everyMs: number }[] = [];
    const timeouts: { callback: () => void; delayMs: number }[] = [];
    const timers: Timers = {
      setTimeout: (callback, delayMs) => timeouts.push({ callback, delayMs }),
      clearTimeout: () => undefined,
      setInterval: (callback, everyMs) => intervals.push({ callback, everyMs }),
      clearInterval: () => undefined,
    };
    stream = new CallStream({
      serverUrl: relay.origin,
      deviceToken: TOKEN,
      lastEventId: null,
      handlers: { ...handlers, onConnection: (state) => connections.push(state) },
      silenceLimitMs: 60_000,
      reconnectDelaysMs: [7_000],
      timers,
      clock: { now: () => now },
    });
    stream.start();
    expect(intervals.map((interval) => interval.everyMs)).toEqual([30_000]);
    openSse((await relay.request(0)).response);
    await eventually(() => connections.includes("open"));
    const watchdog = intervals[0]?.callback ?? (() => undefined);
    now += 60_000;
    watchdog();
    expect(relay.requests).toHaveLength(1);
    now += 1;
    watchdog();
    const second = await relay.request(1);
    second.response.writeHead(502).end();
    await eventually(() => timeouts.length === 1);
    expect(timeouts[0]?.delayMs).toBe(7_000);
    expect(relay.requests).toHaveLength(2);
    timeouts[0]?.callback();
    await relay.request(2);
  });

  it("skips an event it cannot read without stopping the stream or keeping its id", async () => {
    const consoleError = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { log, synced, first } = await openStream();
    sendSse(first.response, "call", { not: "an event" }, 1);
    sendSse(first.response, "call", relayedEvent("e2", 2), 2);
    sendSse(first.response, "synced", { seq: 2 }, 2);
    await eventually(() => synced.length === 1);
    expect(log).toEqual(["call e2", "id 2", "id 2"]);
    expect(consoleError).toHaveBeenCalledOnce();
    consoleError.mockRestore();
  });
});
