// Built-ins on the report path are taken from the runtime rather than imported: an ESM `import` of a built-in
// builds its whole namespace (for node:http that loads undici, zlib and http2, about 30 ms of every hook run).
// The request is written on a plain socket, not with node:http: its client's first request runs cold code
// for about 4 ms, a large part of what the hook costs beyond starting Node. The daemon is ours and local, and
// only the status line of its answer is read.
const net = process.getBuiltinModule("node:net");

/** How a `POST /report` ended: the daemon's status, or why there was none. */
export type PostOutcome = { status: number } | { error: string };

export interface PostTarget {
  port: number;
  key: string;
}

const STATUS_LINE = /^HTTP\/1\.[01] (\d{3})[ \r]/;
/** A status line longer than this is not from the daemon. */
const STATUS_LINE_MAX_BYTES = 1024;

function requestHead(target: PostTarget, bodyBytes: number): string {
  return [
    "POST /report HTTP/1.1",
    `Host: 127.0.0.1:${target.port}`,
    "Content-Type: application/json",
    `Content-Length: ${bodyBytes}`,
    `Authorization: Bearer ${target.key}`,
    "Connection: close",
    "",
    "",
  ].join("\r\n");
}

/**
 * Posts the report to the daemon on 127.0.0.1 with the local key. Sends no `Origin` (the daemon refuses
 * any) and no keep-alive (the process ends right after). Resolves with the status as soon as the status
 * line has arrived. Never rejects; `signal` bounds the whole exchange.
 */
export function postReport(target: PostTarget, body: string, signal: AbortSignal): Promise<PostOutcome> {
  return new Promise((resolve) => {
    const bodyBuffer = Buffer.from(body, "utf8");
    const socket = net.connect({ host: "127.0.0.1", port: target.port });
    let received = "";
    const finish = (outcome: PostOutcome) => {
      signal.removeEventListener("abort", onAbort);
      socket.destroy();
      resolve(outcome);
    };
    const onAbort = () => finish({ error: "no answer within the hook's budget" });
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort);
    socket.setNoDelay(true);
    socket.on("connect", () => {
      socket.write(requestHead(target, bodyBuffer.length));
      socket.write(bodyBuffer);
    });
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
      const lineEnd = received.indexOf("\n");
      if (lineEnd === -1 && received.length < STATUS_LINE_MAX_BYTES) return;
      const status = STATUS_LINE.exec(received)?.[1];
      finish(status ? { status: Number(status) } : { error: "the answer is not HTTP" });
    });
    socket.on("end", () => finish({ error: "the daemon closed the connection without an answer" }));
    socket.on("error", (error) => finish({ error: error.message }));
  });
}
