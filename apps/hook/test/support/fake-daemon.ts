import { createServer, type IncomingHttpHeaders } from "node:http";
import { join } from "node:path";
import { listenOnLoopback, makeTemporaryDirectory, type TemporaryDirectory } from "@ringback/test-kit";
import { writeRingbackHome } from "./hook-process.js";

interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * How the fake daemon answers: a status (with a report's body), a status and a body of the test's choosing
 * (`POST /permission-requests`), or never (a daemon that hangs).
 */
export type FakeDaemonAnswer = number | "hang" | { status: number; body: string };

export interface FakeDaemon extends AsyncDisposable {
  port: number;
  requests: RecordedRequest[];
}

/** A real HTTP server on 127.0.0.1 standing in for the daemon; records every request it gets. */
export async function startFakeDaemon(answer: FakeDaemonAnswer = 202): Promise<FakeDaemon> {
  const requests: RecordedRequest[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      requests.push({
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      if (answer === "hang") return;
      if (typeof answer === "object") {
        response.writeHead(answer.status, { "Content-Type": "application/json" });
        response.end(answer.body);
        return;
      }
      response.writeHead(answer, { "Content-Type": "application/json" });
      response.end(answer === 202 ? '{"accepted":true}' : '{"error":{"code":"internal","message":"x"}}');
    });
  });
  const listening = await listenOnLoopback(server);
  return { port: listening.port, requests, [Symbol.asyncDispose]: listening.close };
}

/** A temporary home whose `.ringback` names a fake daemon (and holds the local key), as the daemon leaves it. */
export interface HomeWithDaemon extends AsyncDisposable {
  readonly home: TemporaryDirectory;
  readonly daemon: FakeDaemon;
}

/** A home the hook finds a fake daemon from, answering `answer`; both gone at dispose. */
export async function homeWithDaemon(answer: FakeDaemonAnswer = 202): Promise<HomeWithDaemon> {
  const home = await makeTemporaryDirectory();
  const daemon = await startFakeDaemon(answer);
  await writeRingbackHome(join(home.path, ".ringback"), daemon.port);
  return {
    home,
    daemon,
    async [Symbol.asyncDispose]() {
      await daemon[Symbol.asyncDispose]();
      await home.remove();
    },
  };
}
