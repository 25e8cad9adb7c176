import { createServer, type IncomingMessage, type Server } from "node:http";
import type { Duplex } from "node:stream";
import { LINK_CLOSE_CODES } from "@ringback/protocol";
import { eventually, listenOnLoopback } from "@ringback/test-kit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type WebSocket, WebSocketServer } from "ws";
import { LINK_RECONNECT_MAX_MS, linkReconnectDelayMs } from "../src/runtime/relay-link/link-backoff.js";
import { linkUrl, RelayLink } from "../src/runtime/relay-link/relay-link.js";

const TOKEN = "device-token-never-logged-0123456789";

/** A relay stand-in for the link: answers each upgrade as the test says and keeps the sockets it accepts. */
async function startLinkServer(answer: (request: IncomingMessage, socket: Duplex) => "accept" | number) {
  const sockets: WebSocket[] = [];
  const upgrades: IncomingMessage[] = [];
  const webSockets = new WebSocketServer({ noServer: true });
  const server: Server = createServer((_request, response) => response.writeHead(404).end());
  server.on("upgrade", (request, socket, head) => {
    upgrades.push(request);
    // The daemon may cut a refused handshake short: a reset must not crash the test process.
    socket.on("error", () => socket.destroy());
    const decision = answer(request, socket);
    if (decision === "accept") {
      webSockets.handleUpgrade(request, socket, head, (webSocket) => sockets.push(webSocket));
      return;
    }
    socket.end(`HTTP/1.1 ${decision} Refused\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
  });
  const listening = await listenOnLoopback(server);
  return {
    url: listening.origin,
    sockets,
    upgrades,
    async close() {
      for (const socket of webSockets.clients) socket.terminate();
      webSockets.close();
      await listening.close();
    },
  };
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function startLink(serverUrl: string, options: Partial<ConstructorParameters<typeof RelayLink>[0]> = {}) {
  const lines: string[] = [];
  const messages: unknown[] = [];
  const link = new RelayLink({
    serverUrl,
    deviceToken: TOKEN,
    log: (line) => lines.push(line),
    onMessage: (message) => messages.push(message),
    reconnectDelayMs: () => 20,
    ...options,
  });
  cleanups.push(() => link.stop());
  link.start();
  return { link, lines, messages };
}

describe("reconnect schedule", () => {
  it("waits 1 s, doubling to at most 30 s, each wait shortened by up to a quarter at random", () => {
    const waits = [1, 2, 3, 4, 5, 6, 7, 20].map((attempt) => linkReconnectDelayMs(attempt, () => 0));
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
    expect(linkReconnectDelayMs(1, () => 1)).toBe(750);
    expect(linkReconnectDelayMs(9, () => 0.5)).toBeLessThanOrEqual(LINK_RECONNECT_MAX_MS);
  });

  it("tries again after 1 s, then 2 s, then 4 s while the relay refuses", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const server = await startLinkServer(() => 503);
    cleanups.push(() => server.close());
    startLink(server.url, { reconnectDelayMs: (attempt) => linkReconnectDelayMs(attempt, () => 0) });
    await eventually(() => server.upgrades.length === 1);
    for (const [waitMs, attempts] of [
      [1000, 2],
      [2000, 3],
      [4000, 4],
    ] as const) {
      await vi.advanceTimersByTimeAsync(waitMs - 1);
      expect(server.upgrades).toHaveLength(attempts - 1);
      await vi.advanceTimersByTimeAsync(1);
      await eventually(() => server.upgrades.length === attempts);
    }
  });
});

describe("the relay link", () => {
  it("sends the device token on the upgrade and hands over the relay's messages", async () => {
    const server = await startLinkServer(() => "accept");
    cleanups.push(() => server.close());
    const { link, messages, lines } = startLink(server.url);
    await eventually(() => link.state === "open" && server.sockets.length === 1);
    expect(server.upgrades[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(server.upgrades[0]?.url).toBe("/v1/daemon/link");
    const reply = { type: "reply", replyId: "r1", eventId: "evt_1", sealed: "e2e1.a.b.c" };
    server.sockets[0]?.send(JSON.stringify(reply));
    server.sockets[0]?.send("not json");
    await eventually(() => messages.length === 1 && lines.some((line) => line.includes("ignored")));
    expect(messages).toEqual([reply]);
    const received = new Promise<string>((resolve) =>
      server.sockets[0]?.once("message", (data) => resolve(String(data))),
    );
    expect(link.send({ type: "reply-status", replyId: "r1", status: "delivered" })).toBe(true);
    expect(JSON.parse(await received)).toEqual({ type: "reply-status", replyId: "r1", status: "delivered" });
  });

  it("reconnects after the relay drops the link, and logs without the token", async () => {
    const server = await startLinkServer(() => "accept");
    cleanups.push(() => server.close());
    const { link, lines } = startLink(server.url);
    await eventually(() => server.sockets.length === 1);
    server.sockets[0]?.terminate();
    await eventually(() => server.sockets.length === 2 && link.state === "open");
    expect(lines.filter((line) => line.startsWith("relay link open"))).toHaveLength(2);
    expect(lines.some((line) => line.startsWith("relay link lost"))).toBe(true);
    expect(lines.join("\n")).not.toContain(TOKEN);
  });

  it("drops and reopens a link on which the relay has gone silent", async () => {
    const server = await startLinkServer(() => "accept");
    cleanups.push(() => server.close());
    const { lines } = startLink(server.url, { silenceMaxMs: 200 });
    await eventually(() => server.sockets.length >= 2);
    expect(lines.some((line) => line.includes("silent"))).toBe(true);
  });

  it("stops reconnecting when the relay refuses the device token (401)", async () => {
    const server = await startLinkServer(() => 401);
    cleanups.push(() => server.close());
    // The link asks for a delay each time it schedules a reconnect: none asked, none scheduled.
    const reconnects: number[] = [];
    const { link, lines } = startLink(server.url, {
      reconnectDelayMs: (attempt) => {
        reconnects.push(attempt);
        return 20;
      },
    });
    await eventually(() => link.state === "refused");
    expect(reconnects).toEqual([]);
    expect(server.upgrades).toHaveLength(1);
    expect(lines.join("\n")).toMatch(/no longer accepts this computer's device token.*ringback login/);
  });

  it("stops reconnecting when the device is removed (close 4001) or another daemon takes over (4000)", async () => {
    for (const code of [LINK_CLOSE_CODES.deviceRemoved, LINK_CLOSE_CODES.replaced]) {
      const server = await startLinkServer(() => "accept");
      cleanups.push(() => server.close());
      const reconnects: number[] = [];
      const { link } = startLink(server.url, {
        reconnectDelayMs: (attempt) => {
          reconnects.push(attempt);
          return 20;
        },
      });
      await eventually(() => server.sockets.length === 1);
      server.sockets[0]?.close(code, "closed by the relay");
      await eventually(() => link.state === "refused");
      expect(reconnects).toEqual([]);
      expect(server.upgrades).toHaveLength(1);
    }
  });

  it("keeps a path prefix of the relay address and uses wss for https", () => {
    expect(linkUrl("https://relay.example/ringback/")).toBe("wss://relay.example/ringback/v1/daemon/link");
    expect(linkUrl("http://127.0.0.1:8787")).toBe("ws://127.0.0.1:8787/v1/daemon/link");
  });
});
