import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { CallStatusWrite, DeviceCredentials, ReplyRequest, ReplyStatusChange } from "@ringback/protocol";
import { serveBuiltApp } from "./serve-built-app.js";

export interface StatusWrite {
  readonly eventId: string;
  readonly status: CallStatusWrite;
  readonly authorization: string | undefined;
}

export interface ReplyWrite {
  readonly eventId: string;
  readonly request: ReplyRequest;
}

/** How the computer settles the replies the page sends (pushed as `reply-status` on the newest stream). */
export type ReplyOutcome = Pick<ReplyStatusChange, "status" | "sealedReason" | "plaintextReason">;
/** A fixed outcome, or one made for the reply (a reason sealed for its replyId). */
export type ReplyOutcomeSource = ReplyOutcome | ((reply: ReplyWrite) => Promise<ReplyOutcome>);

export interface TestRelayServer extends AsyncDisposable {
  readonly origin: string;
  readonly credentials: DeviceCredentials;
  readonly statusWrites: StatusWrite[];
  readonly replies: ReplyWrite[];
  /** The outcome pushed after each reply is accepted; "delivered" unless a test sets another. */
  replyOutcome: ReplyOutcomeSource;
  /** Resolves with the n-th SSE stream the page opened (from 0). */
  stream(index: number): Promise<ServerResponse>;
  close(): Promise<void>;
}

/**
 * Serves the built web app from dist/ (unknown paths get index.html, as the relay's `--web-root` does) and the few
 * relay routes the page calls, on 127.0.0.1 and a random port. The real relay is another app; this stand-in lets the
 * browser test drive the page alone.
 */
export async function startTestRelayServer(distDirectory: string): Promise<TestRelayServer> {
  const credentials: DeviceCredentials = {
    accountId: "acc_test",
    deviceId: "dev_browser",
    deviceToken: "tok_browser_secret",
  };
  const statusWrites: StatusWrite[] = [];
  const replies: ReplyWrite[] = [];
  let replySeq = 1_000_000;
  const outcome: { current: ReplyOutcomeSource } = {
    current: { status: "delivered", sealedReason: null, plaintextReason: null },
  };
  const streams: ServerResponse[] = [];
  const waiters = new Map<number, (response: ServerResponse) => void>();
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://localhost");
    const json = (status: number, body: unknown) =>
      response.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
    if (url.pathname === "/v1/setup") return json(200, { claimRequired: false, openSignup: true });
    if (url.pathname === "/v1/accounts" && request.method === "POST") return json(201, credentials);
    // This device is the account's only one: no computer to relay daemon requests to.
    if (url.pathname === "/v1/devices" && request.method === "GET") {
      const device = {
        id: credentials.deviceId,
        name: "This browser",
        kind: "browser",
        createdAt: new Date(0).toISOString(),
        lastSeenAt: null,
        online: true,
        isCurrent: true,
      };
      return json(200, { devices: [device] });
    }
    if (url.pathname === "/v1/stream") {
      response.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
      response.write("retry: 100\n\n");
      streams.push(response);
      waiters.get(streams.length - 1)?.(response);
      return;
    }
    const statusPath = url.pathname.match(/^\/v1\/calls\/([\w-]+)\/status$/);
    if (statusPath && request.method === "POST") {
      let body = "";
      request.on("data", (chunk: Buffer) => {
        body += chunk.toString("utf8");
      });
      request.on("end", () => {
        const { status } = JSON.parse(body) as { status: CallStatusWrite };
        statusWrites.push({ eventId: statusPath[1]!, status, authorization: request.headers.authorization });
        json(200, { eventId: statusPath[1], status, won: true });
      });
      return;
    }
    const replyPath = url.pathname.match(/^\/v1\/calls\/([\w-]+)\/replies$/);
    if (replyPath && request.method === "POST") {
      let body = "";
      request.on("data", (chunk: Buffer) => {
        body += chunk.toString("utf8");
      });
      request.on("end", () => {
        const eventId = replyPath[1]!;
        const reply = JSON.parse(body) as ReplyRequest;
        const write = { eventId, request: reply };
        replies.push(write);
        json(202, { replyId: reply.replyId, eventId, status: "queued" });
        // The computer settled it: the relay tells every device on the stream.
        const source = outcome.current;
        (typeof source === "function" ? source(write) : Promise.resolve(source))
          .then((settled) => {
            replySeq += 1;
            const change: ReplyStatusChange = {
              seq: replySeq,
              eventId,
              replyId: reply.replyId,
              ...settled,
              at: new Date().toISOString(),
            };
            streams
              .at(-1)
              ?.write(`id: ${replySeq}\nevent: reply-status\ndata: ${JSON.stringify(change)}\n\n`);
          })
          .catch((error: unknown) => console.error("The test's reply outcome failed.", error));
      });
      return;
    }
    if (url.pathname.startsWith("/v1/"))
      return json(404, { error: { code: "not_found", message: "No such path." } });
    serveBuiltApp(distDirectory, url.pathname, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return {
    origin: `http://127.0.0.1:${port}`,
    credentials,
    statusWrites,
    replies,
    get replyOutcome() {
      return outcome.current;
    },
    set replyOutcome(next) {
      outcome.current = next;
    },
    stream(index) {
      const open = streams[index];
      if (open) return Promise.resolve(open);
      return new Promise((resolve) => waiters.set(index, resolve));
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}
