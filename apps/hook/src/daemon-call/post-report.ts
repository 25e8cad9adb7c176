import type { Socket } from "node:net";
import { isProvenAnswer, type SignedRequest, signRequest } from "./local-proof.js";
import { LOCAL_ANSWER_PROOF_HEADER, LOCAL_REQUEST_PROOF_HEADER } from "./protocol-constants.js";

// Built-ins on the report path are taken from the runtime (`process.getBuiltinModule`) rather than imported: an ESM
// `import` of a built-in builds its whole namespace (for node:http that loads undici, zlib and http2, about 30 ms of
// every hook run). The request is written on a plain node:net socket, not with node:http, whose client's first
// request runs cold code for about 4 ms.
//
// The local key never leaves this process: the request carries a proof made with it (local-proof.ts), and an answer
// counts as the daemon's only when it carries the daemon's proof over this request, its status and its body, so
// another user's program that took the daemon's port learns nothing it can reuse and cannot answer for the daemon.

/** The daemon's error body (`{"error":{"code","message"}}`, protocol's `ErrorBody`) when it refused a report. */
interface DaemonError {
  code: string;
  message: string;
}

/** How a `POST` to the daemon ended. */
export type PostOutcome =
  /**
   * An HTTP answer came; `isProven` when it carries the daemon's proof (else it may come from anything on the port,
   * and nothing in it is to be believed). A refusal carries its error body when it sent one, and an answer that was
   * asked to be read (`readsAnswer`) carries its whole body.
   */
  | { kind: "answered"; status: number; isProven: boolean; error?: DaemonError; body?: string }
  /** Nothing listens on the port: the daemon is not running. */
  | { kind: "refused" }
  /** No status line within the budget. */
  | { kind: "timed-out" }
  /** The connection closed before a status line. */
  | { kind: "closed" }
  /** What answered does not speak HTTP: not the daemon. */
  | { kind: "not-http" }
  /** Any other failure of the connection, with the system's words. */
  | { kind: "failed"; reason: string };

export interface PostTarget {
  port: number;
  key: string;
}

/** Opens the connection to the daemon on 127.0.0.1; tests pass their own to watch the socket. */
export type ConnectToDaemon = (port: number) => Socket;

const STATUS_LINE = /^HTTP\/1\.[01] (\d{3})[ \r]/;
/** A status line longer than this is not from the daemon. */
const STATUS_LINE_MAX_BYTES = 1024;
/**
 * An answer is read up to this size: the daemon's error bodies are a line of text, and a permission answer holds at
 * most a reason of `PERMISSION_REASON_MAX_CHARS` (each escaped to at most 6 bytes) and a device name.
 */
const ANSWER_MAX_BYTES = 64 * 1024;

export const connectToDaemon: ConnectToDaemon = (port) => {
  const socket = process.getBuiltinModule("node:net").connect({ host: "127.0.0.1", port });
  socket.setNoDelay(true);
  return socket;
};

/** The request in one piece, signed: the local key itself is never written to the socket. */
function request(path: string, port: number, body: Buffer, signed: SignedRequest): Buffer {
  const head = [
    `POST ${path} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    "Content-Type: application/json",
    `Content-Length: ${body.length}`,
    `${LOCAL_REQUEST_PROOF_HEADER}: ${signed.header}`,
    "Connection: close",
    "",
    "",
  ].join("\r\n");
  return Buffer.concat([Buffer.from(head, "latin1"), body]);
}

/** The status once its line is in, `"not-http"` when what arrived cannot be one, `undefined` while it may come. */
function statusOf(received: string): number | "not-http" | undefined {
  if (!received.includes("\n") && received.length < STATUS_LINE_MAX_BYTES) return undefined;
  const status = STATUS_LINE.exec(received)?.[1];
  return status ? Number(status) : "not-http";
}

const CHUNKED = /^transfer-encoding:[ \t]*chunked[ \t]*$/im;
const CONTENT_LENGTH = /^content-length:[ \t]*(\d+)[ \t]*$/im;
const ANSWER_PROOF = new RegExp(`^${LOCAL_ANSWER_PROOF_HEADER}:[ \\t]*(\\S+)[ \\t]*$`, "im");

/** The daemon's proof of an answer, from its head. */
function answerProofOf(answer: Buffer): string | undefined {
  const headEnd = answer.indexOf("\r\n\r\n");
  return headEnd === -1 ? undefined : ANSWER_PROOF.exec(answer.toString("latin1", 0, headEnd))?.[1];
}

/** The body of an answer, chunked or not; `undefined` while a chunked one is not whole. */
function bodyOf(answer: Buffer): Buffer | undefined {
  const headEnd = answer.indexOf("\r\n\r\n");
  if (headEnd === -1) return undefined;
  const body = answer.subarray(headEnd + 4);
  if (!CHUNKED.test(answer.toString("latin1", 0, headEnd))) return body;
  const pieces: Buffer[] = [];
  for (let at = 0; ; ) {
    const lineEnd = body.indexOf("\r\n", at);
    if (lineEnd === -1) return undefined;
    const size = Number.parseInt(body.toString("latin1", at, lineEnd), 16);
    if (!(size >= 0)) return undefined;
    if (size === 0) return Buffer.concat(pieces);
    pieces.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}

/** Whether the whole answer is in: its announced length, or its last chunk (else the connection's end says so). */
function isWhole(answer: Buffer): boolean {
  const headEnd = answer.indexOf("\r\n\r\n");
  if (headEnd === -1) return false;
  const head = answer.toString("latin1", 0, headEnd);
  const length = CONTENT_LENGTH.exec(head)?.[1];
  if (length !== undefined) return answer.length - headEnd - 4 >= Number(length);
  return CHUNKED.test(head) && bodyOf(answer) !== undefined;
}

/**
 * The body of an answer known to be complete: its announced length or last chunk arrived, or, for an answer with
 * neither, the connection ended. `undefined` for a cut one.
 */
function completeBodyOf(answer: Buffer, isEnded: boolean): Buffer | undefined {
  if (isWhole(answer)) return bodyOf(answer);
  const headEnd = answer.indexOf("\r\n\r\n");
  if (!isEnded || headEnd === -1) return undefined;
  const head = answer.toString("latin1", 0, headEnd);
  if (CONTENT_LENGTH.test(head) || CHUNKED.test(head)) return undefined;
  return answer.subarray(headEnd + 4);
}

/** The daemon's error body (`{"error":{"code","message"}}`) in a whole answer, if it sent one. */
function errorOf(answer: Buffer): DaemonError | undefined {
  try {
    const error = (
      JSON.parse(bodyOf(answer)?.toString("utf8") ?? "") as { error?: Partial<DaemonError> } | null
    )?.error;
    if (typeof error?.code === "string" && typeof error.message === "string")
      return { code: error.code, message: error.message };
  } catch {
    // Not the daemon's error body: the status says enough.
  }
  return undefined;
}

/**
 * Posts the report to the daemon on 127.0.0.1, signed with the local key, in one write. Sends no `Origin` (the daemon
 * refuses any) and no keep-alive (the process ends right after). Resolves once the whole answer is in (its proof
 * covers its body). Never rejects; `signal` bounds the whole exchange.
 */
export function postReport(
  target: PostTarget,
  body: string,
  signal: AbortSignal,
  connect: ConnectToDaemon = connectToDaemon,
): Promise<PostOutcome> {
  return postToDaemon(target, { path: "/report", body, readsAnswer: false }, signal, connect);
}

/** One request to the daemon's local interface. */
export interface DaemonPost {
  path: string;
  body: string;
  /** Return the body of a 2xx (a report needs only its status). */
  readsAnswer: boolean;
}

/**
 * Posts `post.body` to `post.path` of the daemon on 127.0.0.1, as `postReport` does; with `readsAnswer`, a 2xx
 * carries its whole body (`body`). Never rejects; `signal` bounds the whole exchange.
 */
export function postToDaemon(
  target: PostTarget,
  post: DaemonPost,
  signal: AbortSignal,
  connect: ConnectToDaemon = connectToDaemon,
): Promise<PostOutcome> {
  return new Promise((resolve) => {
    let done = false;
    let received = Buffer.alloc(0);
    let status: number | undefined;
    const body = Buffer.from(post.body, "utf8");
    const signed = signRequest(target.key, { method: "POST", port: target.port, path: post.path, body });
    const socket = connect(target.port);
    const finish = (outcome: PostOutcome) => {
      if (done) return;
      done = true;
      signal.removeEventListener("abort", onAbort);
      socket.destroy();
      resolve(outcome);
    };
    const answered = (isEnded = false) => {
      const answerStatus = status as number;
      const answerBody = completeBodyOf(received, isEnded);
      const isProven =
        answerBody !== undefined &&
        isProvenAnswer(target.key, signed.proof, answerStatus, answerBody, answerProofOf(received));
      const isSuccess = answerStatus >= 200 && answerStatus < 300;
      if (post.readsAnswer && isSuccess) {
        return finish({
          kind: "answered",
          status: answerStatus,
          isProven,
          ...(answerBody === undefined ? {} : { body: answerBody.toString("utf8") }),
        });
      }
      const error = errorOf(received);
      finish({ kind: "answered", status: answerStatus, isProven, ...(error ? { error } : {}) });
    };
    const onAbort = () => (status === undefined ? finish({ kind: "timed-out" }) : answered());
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort);
    socket.on("data", (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (status === undefined) {
        const found = statusOf(received.toString("latin1", 0, STATUS_LINE_MAX_BYTES));
        if (found === "not-http") return finish({ kind: "not-http" });
        if (found === undefined) return;
        status = found;
      }
      if (isWhole(received) || received.length >= ANSWER_MAX_BYTES) answered();
    });
    socket.on("end", () => (status === undefined ? finish({ kind: "closed" }) : answered(true)));
    socket.on("error", (error: NodeJS.ErrnoException) => {
      if (status !== undefined) answered();
      else if (error.code === "ECONNREFUSED") finish({ kind: "refused" });
      else finish({ kind: "failed", reason: error.message });
    });
    socket.write(request(post.path, target.port, body, signed));
  });
}
