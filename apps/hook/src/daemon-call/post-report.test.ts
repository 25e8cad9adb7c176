import { createServer, type IncomingHttpHeaders } from "node:http";
import { type AddressInfo, createServer as createTcpServer, type Server, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { connectToDaemon, postReport, postToDaemon } from "./post-report.js";

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

/** A budget that never runs out: these tests wait on what the sockets do, never on the clock. */
const noDeadline = () => new AbortController().signal;

/** The hook's own connection, handed to `watch` as it is made, so a test can wait on what it does. */
function watchedConnection(watch: (socket: Socket) => void) {
  return (port: number) => {
    const socket = connectToDaemon(port);
    watch(socket);
    return socket;
  };
}

describe("postReport", () => {
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

    const outcome = await postReport({ port, key: "local-key-1" }, body, noDeadline());

    expect(outcome).toEqual({ kind: "answered", status: 202, isProven: false });
    expect(seen).toMatchObject({ method: "POST", url: "/report", body });
    expect(seen.headers).toMatchObject({
      host: `127.0.0.1:${port}`,
      "content-type": "application/json",
      "content-length": String(Buffer.byteLength(body)),
      connection: "close",
    });
    expect(seen.headers?.["ringback-request-proof"]).toMatch(/^v1\.\d+\.[\w-]{22}\.[\w-]{43}$/);
    expect(seen.headers?.authorization).toBeUndefined();
    expect(JSON.stringify(seen)).not.toContain("local-key-1");
    expect(seen.headers?.origin).toBeUndefined();
  });

  it("sends a body larger than the socket's buffers whole, to a reader that starts once the sender waits", async () => {
    // 8 MiB of multi-byte text: more than the kernel takes at once, so the rest waits in the hook's socket.
    const body = JSON.stringify({ text: "é完🎉".repeat((8 * 1024 * 1024) / 9) });
    let senderWaits: () => void = () => {};
    const sending = new Promise<void>((resolve) => {
      senderWaits = resolve;
    });
    let queuedOnceConnected = 0;
    const watch = (client: Socket) =>
      // Once connected, the request is handed to the kernel in that same turn; what it could not take stays queued.
      client.once("connect", () =>
        setImmediate(() => {
          queuedOnceConnected = client.writableLength;
          senderWaits();
        }),
      );
    const chunks: Buffer[] = [];
    const port = await listen(
      createTcpServer((socket) => {
        socket.pause();
        void sending.then(() => {
          let bytes = 0;
          socket.on("data", (chunk: Buffer) => {
            chunks.push(chunk);
            bytes += chunk.length;
            const headBytes = Buffer.concat(chunks.slice(0, 1)).indexOf("\r\n\r\n") + 4;
            if (headBytes > 3 && bytes - headBytes >= Buffer.byteLength(body))
              socket.end("HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\n\r\n");
          });
          socket.resume();
        });
      }),
    );

    const outcome = await postReport({ port, key: "k" }, body, noDeadline(), watchedConnection(watch));

    expect(outcome).toEqual({ kind: "answered", status: 202, isProven: false });
    expect(queuedOnceConnected).toBeGreaterThan(0);
    const text = Buffer.concat(chunks).toString("utf8");
    expect(text.slice(text.indexOf("\r\n\r\n") + 4)).toBe(body);
    expect(text).toContain(`Content-Length: ${Buffer.byteLength(body)}\r\n`);
  });

  it("reads a status line that arrives in pieces", async () => {
    let server: Socket | undefined;
    const port = await rawDaemon((socket) => {
      server = socket;
      socket.write("HTTP/1.1 2");
    });
    // The rest is sent only once the hook has read the first piece.
    const watch = (client: Socket) =>
      client.once("data", () => server?.end("02 Accepted\r\ncontent-length: 0\r\n\r\n"));
    expect(await postReport({ port, key: "k" }, "{}", noDeadline(), watchedConnection(watch))).toEqual({
      kind: "answered",
      status: 202,
      isProven: false,
    });
  });

  it("reads the daemon's error body when it refuses the report, even in pieces", async () => {
    const errorBody = JSON.stringify({
      error: { code: "storage_full", message: "The computer's disk is full: free some space — 磁盘已满." },
    });
    const answer = Buffer.from(
      `HTTP/1.1 507 Insufficient Storage\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(errorBody)}\r\n\r\n${errorBody}`,
    );
    // Cut inside a multi-byte character, after the status line.
    const cut = answer.indexOf("磁") + 1;
    let server: Socket | undefined;
    const port = await rawDaemon((socket) => {
      server = socket;
      socket.write(answer.subarray(0, cut));
    });
    const watch = (client: Socket) => client.once("data", () => server?.end(answer.subarray(cut)));

    expect(await postReport({ port, key: "k" }, "{}", noDeadline(), watchedConnection(watch))).toEqual({
      kind: "answered",
      status: 507,
      isProven: false,
      error: JSON.parse(errorBody).error,
    });
  });

  it("reads a refusal's error body sent chunked, as node:http sends one without a length", async () => {
    const error = { code: "unauthorized", message: "The local API key is missing or wrong." };
    const server = createServer((request, response) => {
      request.resume();
      request.on("end", () => {
        response.writeHead(401, { "Content-Type": "application/json" });
        response.write(JSON.stringify({ error }).slice(0, 10));
        response.end(JSON.stringify({ error }).slice(10));
      });
    });
    const port = await listen(server);
    expect(await postReport({ port, key: "k" }, "{}", noDeadline())).toEqual({
      kind: "answered",
      status: 401,
      isProven: false,
      error,
    });
  });

  const internalError = JSON.stringify({ error: { code: "internal", message: "x" } });
  it.each([
    ["its length", `content-length: ${internalError.length}\r\n\r\n${internalError}`],
    ["its last chunk", `transfer-encoding: chunked\r\n\r\n2b\r\n${internalError}\r\n0\r\n\r\n`],
  ])("takes a refusal as whole once %s is in, even with the connection left open", async (_, rest) => {
    const port = await rawDaemon((socket) => socket.write(`HTTP/1.1 500 Internal Server Error\r\n${rest}`));
    expect(await postReport({ port, key: "k" }, "{}", noDeadline())).toEqual({
      kind: "answered",
      status: 500,
      isProven: false,
      error: { code: "internal", message: "x" },
    });
  });

  it("gives the status alone when a refusal has no error body", async () => {
    const port = await rawDaemon((socket) => socket.end("HTTP/1.1 500 Internal Server Error\r\n\r\noops"));
    expect(await postReport({ port, key: "k" }, "{}", noDeadline())).toEqual({
      kind: "answered",
      status: 500,
      isProven: false,
    });
  });

  it("says so when the answer is not HTTP", async () => {
    const port = await rawDaemon((socket) => socket.end("SSH-2.0-OpenSSH_9.2\r\n"));
    expect(await postReport({ port, key: "k" }, "{}", noDeadline())).toEqual({ kind: "not-http" });
  });

  it("says so when the daemon closes the connection without an answer", async () => {
    const port = await rawDaemon((socket) => socket.end());
    expect(await postReport({ port, key: "k" }, "{}", noDeadline())).toEqual({ kind: "closed" });
  });

  it("gives up when the budget ends before an answer", async () => {
    const budget = new AbortController();
    // The budget runs out once the daemon has the request and says nothing.
    const port = await rawDaemon(() => budget.abort());
    expect(await postReport({ port, key: "k" }, "{}", budget.signal)).toEqual({ kind: "timed-out" });
  });

  it("keeps the status when the budget ends while a refusal's body is still arriving", async () => {
    const budget = new AbortController();
    const port = await rawDaemon((socket) =>
      socket.write("HTTP/1.1 401 Unauthorized\r\ncontent-length: 90\r\n"),
    );
    // Aborted once the hook has read the status line, while the body it announced is still to come.
    const watch = (client: Socket) => client.once("data", () => setImmediate(() => budget.abort()));
    expect(await postReport({ port, key: "k" }, "{}", budget.signal, watchedConnection(watch))).toEqual({
      kind: "answered",
      status: 401,
      isProven: false,
    });
  });

  it("says the daemon is not running when nothing listens on its port", async () => {
    const port = await listen(createTcpServer());
    await new Promise((resolve) => servers.pop()?.close(resolve));
    expect(await postReport({ port, key: "k" }, "{}", noDeadline())).toEqual({ kind: "refused" });
  });
});

describe("postToDaemon with readsAnswer (a permission request)", () => {
  const post = (body: string) => ({ path: "/permission-requests", body, readsAnswer: true });
  const answer = '{"outcome":"decided","verdict":"deny","reason":"non — 不","decidedOn":"Pixel"}';

  it("returns the whole body of a 200, sent with its length, chunked, or ended by the connection", async () => {
    const bytes = Buffer.byteLength(answer);
    const half = Math.floor(answer.length / 2);
    const forms: ((socket: Socket) => void)[] = [
      (socket) => {
        socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${bytes}\r\n\r\n${answer.slice(0, half)}`);
        setImmediate(() => socket.end(answer.slice(half)));
      },
      (socket) => {
        const [first, second] = [Buffer.from(answer.slice(0, half)), Buffer.from(answer.slice(half))];
        socket.end(
          `HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n${first.length.toString(16)}\r\n${first}\r\n${second.length.toString(16)}\r\n${second}\r\n0\r\n\r\n`,
        );
      },
      (socket) => socket.end(`HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n${answer}`),
    ];
    for (const form of forms) {
      const port = await rawDaemon(form);
      const outcome = await postToDaemon({ port, key: "k" }, post("{}"), noDeadline());
      expect(outcome).toEqual({ kind: "answered", status: 200, isProven: false, body: answer });
    }
  });

  it("sends the request to the path it is given", async () => {
    let url: string | undefined;
    const server = createServer((request, response) => {
      url = request.url;
      request.resume();
      request.on("end", () => response.writeHead(200).end('{"outcome":"present"}'));
    });
    const port = await listen(server);
    const outcome = await postToDaemon({ port, key: "k" }, post("{}"), noDeadline());
    expect(url).toBe("/permission-requests");
    expect(outcome).toEqual({
      kind: "answered",
      status: 200,
      isProven: false,
      body: '{"outcome":"present"}',
    });
  });

  it("returns no body for an answer cut short of its announced length", async () => {
    const port = await rawDaemon((socket) =>
      socket.end(`HTTP/1.1 200 OK\r\nContent-Length: 500\r\n\r\n${answer}`),
    );
    const outcome = await postToDaemon({ port, key: "k" }, post("{}"), noDeadline());
    expect(outcome).toEqual({ kind: "answered", status: 200, isProven: false });
  });
});
