import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import { join } from "node:path";
import { listenOnLoopback, makeTemporaryDirectory, type TemporaryDirectory } from "@ringback/test-kit";
import { answerProofHeader } from "../../src/daemon-call/local-proof.js";
import { LOCAL_KEY, writeRingbackHome } from "./hook-process.js";

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

/** The proof a signed request carries (`v1.<timestamp>.<nonce>.<proof>`): the daemon binds its answer to it. */
function requestProofOf(headers: IncomingHttpHeaders): string {
  return String(headers["ringback-request-proof"] ?? "").split(".")[3] ?? "";
}

export interface FakeDaemonOptions {
  /** Prove each answer with the local key as the daemon does (default); false for an older daemon or an impostor. */
  proves?: boolean;
}

/**
 * A real HTTP server on 127.0.0.1 standing in for the daemon; records every request it gets. It does not check
 * requests' proofs (the daemon's own tests do): it proves its answers, as a daemon holding the key would.
 */
export async function startFakeDaemon(
  answer: FakeDaemonAnswer = 202,
  options: FakeDaemonOptions = {},
): Promise<FakeDaemon> {
  const send = (response: ServerResponse, headers: IncomingHttpHeaders, status: number, body: string) => {
    const proof = answerProofHeader(LOCAL_KEY, requestProofOf(headers), status, Buffer.from(body));
    response.writeHead(status, {
      "Content-Type": "application/json",
      ...(options.proves === false ? {} : { "Ringback-Answer-Proof": proof }),
    });
    response.end(body);
  };
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
      if (typeof answer === "object") return send(response, request.headers, answer.status, answer.body);
      const body = answer === 202 ? '{"accepted":true}' : '{"error":{"code":"internal","message":"x"}}';
      send(response, request.headers, answer, body);
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
export async function homeWithDaemon(
  answer: FakeDaemonAnswer = 202,
  options: FakeDaemonOptions = {},
): Promise<HomeWithDaemon> {
  const home = await makeTemporaryDirectory();
  const daemon = await startFakeDaemon(answer, options);
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
