import { connect, type Socket } from "node:net";
import { Changes, eventually } from "@ringback/test-kit";
import { describe, expect, it } from "vitest";
import { CONNECTIONS_BESIDE_STREAMS_PER_ADDRESS, STREAMS_PER_ADDRESS_MAX } from "../src/relay-config.js";
import { socketRelay } from "./support/socket-relay.js";

/** The connections one address may hold by default: its streams' limit and the connections beside them. */
const CONNECTIONS_MAX = STREAMS_PER_ADDRESS_MAX + CONNECTIONS_BESIDE_STREAMS_PER_ADDRESS;
/** Beyond the limit, as the audit did with thousands (a few hundred show the same on a small machine). */
const ATTACK_SOCKETS = CONNECTIONS_MAX + 100;
const PARTIAL_HEAD = "GET /v1/health HTTP/1.1\r\nhost: 127.0.0.1\r\n";
const FULL_REQUEST = "GET /v1/health HTTP/1.1\r\nhost: 127.0.0.1\r\nconnection: close\r\n\r\n";

/** A raw client socket from `localAddress` (any of 127.0.0.0/8 reaches a relay on 127.0.0.1 over loopback). */
interface RawClient {
  readonly socket: Socket;
  readonly received: () => string;
  readonly isClosed: () => boolean;
  readonly closed: Promise<void>;
}

function rawClient(port: number, localAddress: string, send: string, changes: Changes): Promise<RawClient> {
  const socket = connect({ host: "127.0.0.1", port, localAddress });
  let received = "";
  let isClosed = false;
  const closed = new Promise<void>((resolve) => {
    socket.on("close", () => {
      isClosed = true;
      changes.notify();
      resolve();
    });
  });
  socket.on("error", () => undefined);
  socket.on("data", (chunk: Buffer) => {
    received += chunk.toString("latin1");
    changes.notify();
  });
  return new Promise((resolve, reject) => {
    socket.once("connect", () => {
      socket.write(send);
      resolve({ socket, received: () => received, isClosed: () => isClosed, closed });
    });
    socket.once("error", reject);
  });
}

describe("half-open connections from one address", () => {
  it("refuses an address's connections beyond its limit while another address is served", async () => {
    await using relay = await socketRelay();
    const port = relay.server.port;
    const changes = new Changes();
    const held: RawClient[] = [];
    try {
      for (let index = 0; index < ATTACK_SOCKETS; index++) {
        held.push(await rawClient(port, "127.0.0.1", PARTIAL_HEAD, changes));
      }
      // The relay closes what is beyond the limit at once; the rest wait for the headers' timeout (20 s).
      await eventually(
        () => held.filter((client) => client.isClosed()).length >= ATTACK_SOCKETS - CONNECTIONS_MAX,
        {
          what: "the connections beyond the limit to be closed",
          on: changes,
        },
      );
      expect(held.filter((client) => client.isClosed())).toHaveLength(ATTACK_SOCKETS - CONNECTIONS_MAX);
      expect(held.filter((client) => client.received() !== "")).toEqual([]);

      // One more whole request from the full address: closed unanswered.
      const refused = await rawClient(port, "127.0.0.1", FULL_REQUEST, changes);
      await refused.closed;
      expect(refused.received()).toBe("");

      // Another address is served as before, while the full address's connections are still open.
      const other = await rawClient(port, "127.0.0.2", FULL_REQUEST, changes);
      await other.closed;
      expect(other.received()).toMatch(/^HTTP\/1\.1 200 /);
      expect(held.filter((client) => !client.isClosed())).toHaveLength(CONNECTIONS_MAX);
    } finally {
      for (const client of held) client.socket.destroy();
    }

    // Once they are gone the address is served again.
    await eventually(
      () => relay.server.relay.runtime.hub.connectionCount === 0 && held.every((c) => c.isClosed()),
    );
    const again = await eventually(
      async () => {
        const client = await rawClient(port, "127.0.0.1", FULL_REQUEST, changes);
        await client.closed;
        return client.received() || null;
      },
      { what: "the address to be served again" },
    );
    expect(again).toMatch(/^HTTP\/1\.1 200 /);
  });

  it("behind a proxy, bounds each forwarded address's requests in flight while another address is served", async () => {
    await using relay = await socketRelay({ behindProxy: true });
    const port = relay.server.port;
    const changes = new Changes();
    // Through the proxy: whole headers, then a body that never comes (the proxy's one address for every socket).
    const stalled = (forwardedFor: string) =>
      `POST /v1/pairing-codes/redeem HTTP/1.1\r\nhost: 127.0.0.1\r\nx-forwarded-for: ${forwardedFor}\r\n` +
      'content-type: application/json\r\ncontent-length: 100\r\n\r\n{"code":';
    const wholeRequest = (forwardedFor: string) =>
      `GET /v1/health HTTP/1.1\r\nhost: 127.0.0.1\r\nx-forwarded-for: ${forwardedFor}\r\nconnection: close\r\n\r\n`;
    const held: RawClient[] = [];
    try {
      for (let index = 0; index < CONNECTIONS_MAX; index++) {
        held.push(await rawClient(port, "127.0.0.1", stalled("203.0.113.9"), changes));
      }
      const refused = await eventually(
        async () => {
          const client = await rawClient(port, "127.0.0.1", wholeRequest("203.0.113.9"), changes);
          await client.closed;
          return /^HTTP\/1\.1 429 /.test(client.received()) ? client.received() : null;
        },
        { what: "a request beyond the address's limit to be refused" },
      );
      expect(refused).toMatch(/retry-after: \d+/i);
      expect(refused).toContain('"code":"rate_limited"');

      const other = await rawClient(port, "127.0.0.1", wholeRequest("198.51.100.20"), changes);
      await other.closed;
      expect(other.received()).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      for (const client of held) client.socket.destroy();
    }

    // Its requests are counted until they end: once the stalled ones are gone, the address is served again, and a
    // keep-alive client's many requests one after another never add up.
    await eventually(
      async () => {
        const client = await rawClient(port, "127.0.0.1", wholeRequest("203.0.113.9"), changes);
        await client.closed;
        return /^HTTP\/1\.1 200 /.test(client.received());
      },
      { what: "the forwarded address to be served again" },
    );
    for (let index = 0; index < 2 * CONNECTIONS_MAX; index++) {
      const answer = await fetch(new URL("/v1/health", relay.url), {
        headers: { "x-forwarded-for": "203.0.113.9" },
      });
      await answer.text();
      expect(answer.status).toBe(200);
    }
  });

  it("cuts half-open connections once the headers' time is up, silent ones too", async () => {
    await using relay = await socketRelay(
      {},
      { slowClientLimits: { headersMs: 400, requestMs: 1_000, checkEveryMs: 100 } },
    );
    const changes = new Changes();
    const held: RawClient[] = [];
    try {
      for (let index = 0; index < 20; index++) {
        // Half of them send part of a head, half nothing at all (node's own header timeout never starts for those).
        const send = index % 2 === 0 ? PARTIAL_HEAD : "";
        held.push(await rawClient(relay.server.port, "127.0.0.3", send, changes));
      }
      await eventually(() => held.every((client) => client.isClosed()), {
        what: "every half-open connection to be cut",
        on: changes,
      });
      // Cut by the relay, with at most the 408 node answers a request whose headers never came.
      for (const client of held) expect(client.received()).toMatch(/^(HTTP\/1\.1 408 .*)?$/s);
      // A client that sends its request in time is served.
      const prompt = await rawClient(relay.server.port, "127.0.0.3", FULL_REQUEST, changes);
      await prompt.closed;
      expect(prompt.received()).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      for (const client of held) client.socket.destroy();
    }
  });
});
