import type { Transport } from "./byte-channel.js";

// Built-ins on the report path are taken from the runtime (`process.getBuiltinModule`) rather than imported: an ESM
// `import` of a built-in builds its whole namespace (for node:http that loads undici, zlib and http2, about 30 ms of
// every hook run). The request is written on a plain connection, not with node:http, whose client's first request
// runs cold code for about 4 ms. The daemon is ours and local, and only the status line of its answer is read.

/** How a `POST /report` ended: the daemon's status, or why there was none. */
export type PostOutcome = { status: number } | { error: string };

export interface PostTarget {
  port: number;
  key: string;
}

const STATUS_LINE = /^HTTP\/1\.[01] (\d{3})[ \r]/;
/** A status line longer than this is not from the daemon. */
const STATUS_LINE_MAX_BYTES = 1024;

function request(target: PostTarget, body: string): string {
  return [
    "POST /report HTTP/1.1",
    `Host: 127.0.0.1:${target.port}`,
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(body)}`,
    `Authorization: Bearer ${target.key}`,
    "Connection: close",
    "",
    body,
  ].join("\r\n");
}

/** The outcome once the status line is in, `undefined` while it may still be arriving. */
function outcomeOf(received: string): PostOutcome | undefined {
  if (!received.includes("\n") && received.length < STATUS_LINE_MAX_BYTES) return undefined;
  const status = STATUS_LINE.exec(received)?.[1];
  return status ? { status: Number(status) } : { error: "the answer is not HTTP" };
}

/**
 * Posts the report to the daemon on 127.0.0.1 with the local key, in one write. Sends no `Origin` (the daemon
 * refuses any) and no keep-alive (the process ends right after). Resolves with the status as soon as the status
 * line has arrived. Never rejects; `signal` bounds the whole exchange.
 */
export function postReport(
  transport: Transport,
  target: PostTarget,
  body: string,
  signal: AbortSignal,
): Promise<PostOutcome> {
  return new Promise((resolve) => {
    let done = false;
    let received = "";
    const connection = transport.connect(target.port);
    const finish = (outcome: PostOutcome) => {
      if (done) return;
      done = true;
      signal.removeEventListener("abort", onAbort);
      connection.close();
      resolve(outcome);
    };
    const onAbort = () => finish({ error: "no answer within the hook's budget" });
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort);
    connection.read(
      (chunk) => {
        received += chunk.toString("latin1");
        const outcome = outcomeOf(received);
        if (outcome) finish(outcome);
      },
      (error) => finish({ error: error ?? "the daemon closed the connection without an answer" }),
    );
    connection.write(request(target, body));
  });
}
