import { RELAY_EVENT_BODY_MAX_BYTES, RELAY_SSE_EVENTS } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { SSE_PENDING_MAX_BYTES } from "../src/runtime/sse-connection.js";
import { SSE_ACCOUNT_PENDING_MAX_BYTES } from "../src/runtime/stream-hub.js";
import { eventBody, inProcessRelay } from "./support/in-process-relay.js";
import { socketRelay } from "./support/socket-relay.js";
import { pausedStream, readBacklog } from "./support/sse-backlog.js";

/** More of the largest events than the loopback sockets of a stalled client can take. */
const EVENTS = 24;
/** Streams one device may hold: a phone whose app stalled on all of them. */
const STALLED_STREAMS = 4;
/** How long to wait for what the relay does on its own (a budget for a busy machine, not a speed). */
const WAIT = { timeout: 20_000 };

/** A `POST /v1/daemon/events` body of exactly the largest size the relay takes, nearly all of it sealed. */
function largestEventBody(eventId: string) {
  const prefix = "e2e1.0123456789abcdef.aXY.";
  const room = RELAY_EVENT_BODY_MAX_BYTES - JSON.stringify(eventBody(eventId, { sealed: prefix })).length;
  const body = eventBody(eventId, { sealed: `${prefix}${"A".repeat(room)}` });
  expect(JSON.stringify(body).length).toBe(RELAY_EVENT_BODY_MAX_BYTES);
  return body;
}

describe("a stalled stream's backlog is bounded by bytes, not by a count of events", () => {
  it("holds about a page per stream of the largest events and the account's bound in all; the client resumes by Last-Event-ID and loses nothing", async () => {
    await using relay = await socketRelay();
    const computer = await relay.signUp("computer");
    const phone = await relay.pair(computer.deviceToken, "phone");
    const posted: string[] = [];
    for (let index = 0; index < EVENTS; index++) {
      const eventId = `largest${index}`;
      const answer = await relay.request("POST", "/v1/daemon/events", {
        token: computer.deviceToken,
        body: largestEventBody(eventId),
      });
      expect(answer.status).toBe(201);
      posted.push(eventId);
    }
    const hub = relay.server.relay.runtime.hub;
    const streams = Array.from({ length: STALLED_STREAMS }, () =>
      pausedStream(relay.url, phone.deviceToken, 0),
    );
    try {
      await Promise.all(streams.map((stream) => stream.started));
      // Each stalled stream writes until its sockets are full, then holds what is left of the page it wrote.
      await expect
        .poll(() => hub.stats().pendingBytesByStream.filter((bytes) => bytes > 0).length, WAIT)
        .toBe(STALLED_STREAMS);
      const stats = hub.stats();
      for (const bytes of stats.pendingBytesByStream)
        expect(bytes).toBeLessThanOrEqual(SSE_PENDING_MAX_BYTES);
      expect(stats.largestAccountPendingBytes).toBeLessThanOrEqual(SSE_ACCOUNT_PENDING_MAX_BYTES);
      expect(stats.pendingBytes).toBeLessThanOrEqual(STALLED_STREAMS * SSE_PENDING_MAX_BYTES);
      expect(stats).toMatchObject({ streams: STALLED_STREAMS, droppedSlowReaders: 0 });

      // One stalled client reads what reached it, stops, and comes back later from the last id it saw.
      const [first] = streams;
      (await first?.started)?.resume();
      await expect
        .poll(() => first?.events.filter((event) => event.type === "call").length, WAIT)
        .toBeGreaterThan(0);
      first?.close();
      const seen = first?.events.filter((event) => event.type === "call") ?? [];
      const lastId = Number(seen.at(-1)?.id);
      const rest = await readBacklog(relay.url, phone.deviceToken, lastId);
      expect(rest.at(-1)?.type).toBe(RELAY_SSE_EVENTS.synced);
      const resumed = rest.filter((event) => event.type === "call");
      expect([...seen, ...resumed].map((event) => event.data.eventId)).toEqual(posted);
      for (const event of resumed)
        expect(event.data.sealed).toBe(largestEventBody(event.data.eventId).sealed);
    } finally {
      for (const stream of streams) stream.close();
    }
  }, 120_000);

  it("drops the account's fullest streams once its stalled streams together would hold more than the account's bound", async () => {
    // In process, a stream's body is a web stream nobody reads: every byte written waits in the relay.
    await using relay = await inProcessRelay();
    const computer = await relay.signUp("computer");
    for (let index = 0; index < EVENTS; index++) {
      const answer = await relay.request("POST", "/v1/daemon/events", {
        token: computer.deviceToken,
        body: largestEventBody(`largest${index}`),
      });
      expect(answer.status).toBe(201);
    }
    const devices = [];
    for (const kind of ["phone", "phone", "browser", "browser"] as const)
      devices.push(await relay.pair(computer.deviceToken, kind));
    const hub = relay.relay.runtime.hub;
    const opened: Response[] = [];
    for (const device of devices)
      for (let index = 0; index < STALLED_STREAMS; index++) {
        const response = await relay.relay.app.request("/v1/stream", {
          headers: { Authorization: `Bearer ${device.deviceToken}`, "Last-Event-ID": "0" },
        });
        expect(response.status).toBe(200);
        opened.push(response);
      }
    const everyStreamStuck = () => {
      const stats = hub.stats();
      const isSettled = stats.streams + stats.droppedSlowReaders === opened.length;
      return isSettled && stats.pendingBytesByStream.every((bytes) => bytes > 0);
    };
    await expect.poll(everyStreamStuck, WAIT).toBe(true);
    const stats = hub.stats();
    // Sixteen stalled streams would hold a page each (about 24 MiB); the account's fullest went over its bound.
    expect(stats.droppedSlowReaders).toBeGreaterThan(0);
    expect(stats.largestAccountPendingBytes).toBeLessThanOrEqual(SSE_ACCOUNT_PENDING_MAX_BYTES);
    for (const bytes of stats.pendingBytesByStream) expect(bytes).toBeLessThanOrEqual(SSE_PENDING_MAX_BYTES);
    for (const response of opened) await response.body?.cancel().catch(() => {});
  });
});
