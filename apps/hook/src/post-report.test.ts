import { createServer, type IncomingHttpHeaders } from "node:http";
import { type AddressInfo, createServer as createTcpServer, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import type { Transport } from "./byte-channel.js";
import { libuvTransport } from "./libuv-transport.js";
import { netTransport } from "./net-transport.js";
import { postReport } from "./post-report.js";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

async function listen(server: Server): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** A raw TCP daemon stand-in that answers each connection with `answer` once the request has arrived. */
function rawDaemon(answer: (socket: Socket) => void): Promise<number> {
  const server = createTcpServer((socket) => {
    socket.once("data", () => answer(socket));
    socket.on("error", () => {});
  });
  return listen(server);
}

const budget = () => AbortSignal.timeout(5_000);

const fastTransport = libuvTransport({});
if (!fastTransport) throw new Error(`the libuv transport is not available on Node ${process.version}`);

describe.each([fastTransport, netTransport])("postReport over $name", (transport: Transport) => {
  it("sends a request a real HTTP server reads whole: path, headers, the key and the exact UTF-8 body", async () => {
    const seen: { method?: string; url?: string; headers?: IncomingHttpHeaders; body?: string } = {};
    const server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => {
        Object.assign(seen, {
          method: request.method,
          url: request.url,
          headers: request.headers,
          body: Buffer.concat(chunks).toString("utf8"),
        });
        response.writeHead(202, { "Content-Type": "application/json" }).end('{"accepted":true}');
      });
    });
    const port = await listen(server);
    const body = JSON.stringify({ text: "fini — 完成 ✓ 🎉" });

    const outcome = await postReport(transport, { port, key: "local-key-1" }, body, budget());

    expect(outcome).toEqual({ status: 202 });
    expect(seen).toMatchObject({ method: "POST", url: "/report", body });
    expect(seen.headers).toMatchObject({
      host: `127.0.0.1:${port}`,
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(body)),
      authorization: "Bearer local-key-1",
      connection: "close",
    });
    expect(seen.headers?.origin).toBeUndefined();
  });

  it("sends a body larger than the socket's buffers whole, to a slow reader", async () => {
    // 8 MiB of multi-byte text overflows the kernel's buffers, so the write completes later, in pieces.
    const body = JSON.stringify({ text: "é完🎉".repeat((8 * 1024 * 1024) / 9) });
    const chunks: Buffer[] = [];
    const port = await listen(
      createTcpServer((socket) => {
        socket.pause();
        let bytes = 0;
        // Reads what has arrived every few milliseconds, so the sender waits on a full buffer in between.
        const reader = setInterval(() => {
          for (let chunk = socket.read(); chunk !== null; chunk = socket.read()) {
            chunks.push(chunk as Buffer);
            bytes += (chunk as Buffer).length;
          }
          const headBytes = Buffer.concat(chunks.slice(0, 1)).indexOf("\r\n\r\n") + 4;
          if (headBytes > 3 && bytes - headBytes >= Buffer.byteLength(body)) {
            clearInterval(reader);
            socket.end("HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\n\r\n");
          }
        }, 5);
        socket.on("close", () => clearInterval(reader));
      }),
    );

    expect(await postReport(transport, { port, key: "k" }, body, budget())).toEqual({ status: 202 });
    const text = Buffer.concat(chunks).toString("utf8");
    expect(text.slice(text.indexOf("\r\n\r\n") + 4)).toBe(body);
    expect(text).toContain(`Content-Length: ${Buffer.byteLength(body)}\r\n`);
  });

  it("reads a status line that arrives in pieces", async () => {
    const port = await rawDaemon((socket) => {
      socket.write("HTTP/1.1 4");
      setTimeout(() => socket.end("13 Content Too Large\r\ncontent-length: 0\r\n\r\n"), 20);
    });
    expect(await postReport(transport, { port, key: "k" }, "{}", budget())).toEqual({ status: 413 });
  });

  it("says so when the answer is not HTTP", async () => {
    const port = await rawDaemon((socket) => socket.end("SSH-2.0-OpenSSH_9.2\r\n"));
    expect(await postReport(transport, { port, key: "k" }, "{}", budget())).toEqual({
      error: "the answer is not HTTP",
    });
  });

  it("says so when the daemon closes the connection without an answer", async () => {
    const port = await rawDaemon((socket) => socket.end());
    expect(await postReport(transport, { port, key: "k" }, "{}", budget())).toEqual({
      error: "the daemon closed the connection without an answer",
    });
  });

  it("gives up when the budget ends before an answer", async () => {
    const port = await rawDaemon(() => {});
    expect(await postReport(transport, { port, key: "k" }, "{}", AbortSignal.timeout(100))).toEqual({
      error: "no answer within the hook's budget",
    });
  });

  it("reports a refused connection", async () => {
    const port = await listen(createTcpServer());
    await new Promise((resolve) => servers.pop()?.close(resolve));
    const outcome = await postReport(transport, { port, key: "k" }, "{}", budget());
    expect(outcome).toEqual({ error: expect.stringContaining("ECONNREFUSED") });
  });
});
