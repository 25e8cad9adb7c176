import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { SSE_PENDING_MAX_BYTES, SSE_STALL_MIN_BYTES } from "../src/runtime/sse-connection.js";
import { eventBody } from "./support/in-process-relay.js";
import { type SocketRelay, socketRelay } from "./support/socket-relay.js";
import { parseFrame } from "./support/sse-backlog.js";
import { SseClient } from "./support/sse-client.js";

/** Each event's sealed part: big, so a few of them fill the socket buffers of a client that does not read. */
const SEALED_BYTES = 256 * 1024;
/** Enough events to pass the bound plus any loopback socket buffers; a relay that never drops runs out of them. */
const EVENTS_MAX = 200;
/** How long to wait for what the relay does on its own (a budget for a busy machine, not a speed). */
const WAIT = { timeout: 10_000 };

/** A stream whose client reads nothing until `drain` (node stops reading the socket once its own buffer is full). */
function pausedStream(relay: SocketRelay, token: string): Promise<{ drain(): Promise<string> }> {
  return new Promise((resolve, reject) => {
    const url = new URL("/v1/stream", relay.url);
    const opened = request(url, { headers: { Authorization: `Bearer ${token}` } }, (response) => {
      response.pause();
      resolve({
        drain: () =>
          new Promise((done) => {
            let text = "";
            response.setEncoding("utf8");
            response.on("data", (chunk: string) => {
              text += chunk;
            });
            response.on("error", () => {});
            response.on("close", () => done(text));
            response.resume();
          }),
      });
    });
    opened.on("error", reject);
    opened.end();
  });
}

/** A phone with a reading stream and a paused one; `post` sends a big event and waits until the reader has it. */
async function readerAndSlowStream(relay: SocketRelay) {
  const computer = await relay.signUp("computer");
  const phone = await relay.pair(computer.deviceToken, "phone");
  const hub = relay.server.relay.runtime.hub;
  const reader = new SseClient(relay.url, phone.deviceToken);
  await reader.waitForSynced();
  const slow = await pausedStream(relay, phone.deviceToken);
  await expect.poll(() => hub.stats().streams, WAIT).toBe(2);
  const post = async (eventId: string) => {
    const sealed = `e2e1.0123456789abcdef.aXY.${"A".repeat(SEALED_BYTES)}`;
    const response = await relay.request("POST", "/v1/daemon/events", {
      token: computer.deviceToken,
      body: eventBody(eventId, { sealed }),
    });
    expect(response.status).toBe(201);
    await reader.waitFor("call", (data) => data.eventId === eventId);
  };
  return { phone, hub, reader, slow, post };
}

describe("a slow SSE reader", () => {
  it("is dropped once it leaves more than the bound unread, and resumes by Last-Event-ID with nothing lost", async () => {
    await using relay = await socketRelay();
    const { phone, hub, reader, slow, post } = await readerAndSlowStream(relay);
    using reading = reader;
    const posted: string[] = [];
    let mostUnread = 0;
    while (hub.stats().droppedSlowReaders === 0) {
      if (posted.length === EVENTS_MAX) throw new Error(`Still not dropped after ${EVENTS_MAX} events.`);
      const eventId = `big-${posted.length}`;
      // The reading client has each event before the next is posted: the slow one holds nobody up.
      await post(eventId);
      posted.push(eventId);
      mostUnread = Math.max(mostUnread, hub.stats().pendingBytes);
    }
    expect(posted.length).toBeGreaterThan(1);
    // What the relay held for the slow client never went past the bound (plus its tiny backlog: retry and synced).
    expect(mostUnread).toBeLessThanOrEqual(SSE_PENDING_MAX_BYTES + 1024);
    expect(hub.stats().streams).toBe(1);

    // The dropped client reads what reached it, then resumes after the last id it saw.
    const frames = (await slow.drain()).split("\n\n").slice(0, -1).map(parseFrame);
    const seen = frames.filter((frame) => frame?.type === "call").map((frame) => frame?.data.eventId);
    const lastId = Number(frames.filter((frame) => frame?.id).at(-1)?.id);
    expect(lastId).toBeGreaterThan(0);
    using resumed = new SseClient(relay.url, phone.deviceToken, { lastEventId: lastId });
    await resumed.waitForSynced();
    const after = resumed.of("call").map((event) => event.data.eventId);
    expect([...seen, ...after]).toEqual(posted);
    expect(reading.of("call").map((event) => event.data.eventId)).toEqual(posted);
  });

  it("is closed once it has taken nothing for the stall limit while data waits; a reading client stays", async () => {
    await using relay = await socketRelay();
    const { hub, reader, slow, post } = await readerAndSlowStream(relay);
    using _reading = reader;
    // Data waits for the slow client (its socket buffers are full), still far below the drop bound.
    for (let index = 0; hub.stats().pendingBytes < SSE_STALL_MIN_BYTES; index++) {
      if (index === EVENTS_MAX) throw new Error(`Nothing waiting after ${EVENTS_MAX} events.`);
      await post(`fill-${index}`);
    }
    expect(hub.stats().pendingBytes).toBeLessThan(SSE_PENDING_MAX_BYTES);
    const limits = { maxDurationMs: 24 * 60 * 60_000, stallMs: 60_000 };
    hub.tick(limits);
    expect(hub.stats().streams).toBe(2);
    relay.clock.advance(limits.stallMs + 1);
    hub.tick(limits);
    expect(hub.stats()).toMatchObject({ streams: 1, droppedSlowReaders: 0 });
    expect(hub.stats().pendingBytes).toBeLessThan(SSE_STALL_MIN_BYTES);
    await post("after");
    await slow.drain();
  });
});
