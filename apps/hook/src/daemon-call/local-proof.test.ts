import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { answerProofHeader, signRequest } from "./local-proof.js";
import { postToDaemon } from "./post-report.js";

const KEY = "local-key-for-proofs";
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** The proof a request carries: what the daemon binds its answer to. */
function proofOf(request: IncomingMessage): string {
  return String(request.headers["ringback-request-proof"]).split(".")[3] ?? "";
}

/** A real HTTP server that answers every request with `status` and `body`, and a proof header of `prove`'s making. */
async function answering(
  status: number,
  body: string,
  prove: (request: IncomingMessage) => string | undefined,
): Promise<number> {
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      const proof = prove(request);
      response.writeHead(status, {
        "Content-Type": "application/json",
        ...(proof === undefined ? {} : { "Ringback-Answer-Proof": proof }),
      });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return (server.address() as AddressInfo).port;
}

const ALLOW = '{"outcome":"decided","verdict":"allow","reason":null,"decidedOn":"Pixel"}';
const ask = { path: "/permission-requests", body: "{}", readsAnswer: true };
const noDeadline = () => new AbortController().signal;

describe("signRequest", () => {
  it("sends a fresh nonce and a proof each time, and never the key", () => {
    const request = { method: "POST", port: 8790, path: "/report", body: Buffer.from("{}") };
    const first = signRequest(KEY, request, 1_700_000_000_000);
    const second = signRequest(KEY, request, 1_700_000_000_000);
    expect(first.header).toMatch(/^v1\.1700000000000\.[\w-]{22}\.[\w-]{43}$/);
    expect(first.header).not.toBe(second.header);
    expect(first.header).not.toContain(KEY);
    expect(first.header.endsWith(first.proof)).toBe(true);
  });
});

describe("postToDaemon believes an answer only with the daemon's proof over this request", () => {
  it("proven: the proof is made with the key over this request's proof, the status and the body", async () => {
    const port = await answering(200, ALLOW, (request) =>
      answerProofHeader(KEY, proofOf(request), 200, Buffer.from(ALLOW)),
    );
    expect(await postToDaemon({ port, key: KEY }, ask, noDeadline())).toEqual({
      kind: "answered",
      status: 200,
      isProven: true,
      body: ALLOW,
    });
  });

  it.each([
    ["no proof", () => undefined],
    [
      "a proof made with another key",
      (request: IncomingMessage) =>
        answerProofHeader("another-key", proofOf(request), 200, Buffer.from(ALLOW)),
    ],
    [
      "a proof of another body",
      (request: IncomingMessage) =>
        answerProofHeader(KEY, proofOf(request), 200, Buffer.from('{"outcome":"present"}')),
    ],
    [
      "a proof of another status",
      (request: IncomingMessage) => answerProofHeader(KEY, proofOf(request), 202, Buffer.from(ALLOW)),
    ],
    [
      "a proof for another request",
      () => answerProofHeader(KEY, "an-earlier-request", 200, Buffer.from(ALLOW)),
    ],
    ["the request's own proof sent back", (request: IncomingMessage) => `v1.${proofOf(request)}`],
  ])("unproven: %s", async (_, prove) => {
    const port = await answering(200, ALLOW, prove);
    const outcome = await postToDaemon({ port, key: KEY }, ask, noDeadline());
    expect(outcome).toMatchObject({ kind: "answered", status: 200, isProven: false });
  });
});
