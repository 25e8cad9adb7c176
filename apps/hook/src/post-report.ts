// Built-ins on the report path are taken from the runtime rather than imported: an ESM `import` of a built-in
// builds its whole namespace, and for node:http that loads undici, zlib and http2 (about 30 ms of every hook
// run), for node:fs/promises readline and the REPL history, all for nothing.
const http = process.getBuiltinModule("node:http");

/** How a `POST /report` ended: the daemon's status, or why there was none. */
export type PostOutcome = { status: number } | { error: string };

export interface PostTarget {
  port: number;
  key: string;
}

/**
 * Posts the report to the daemon on 127.0.0.1 with the local key. Sends no `Origin` (the daemon refuses
 * any) and no keep-alive (the process ends right after). Never rejects; `signal` bounds the whole exchange.
 */
export function postReport(target: PostTarget, body: string, signal: AbortSignal): Promise<PostOutcome> {
  return new Promise((resolve) => {
    const outgoing = http.request(
      {
        host: "127.0.0.1",
        port: target.port,
        path: "/report",
        method: "POST",
        agent: false,
        signal,
        headers: {
          "Content-Type": "application/json",
          "Content-Length": Buffer.byteLength(body),
          Authorization: `Bearer ${target.key}`,
        },
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve({ status: response.statusCode ?? 0 }));
        response.on("error", (error) => resolve({ error: error.message }));
      },
    );
    outgoing.on("error", (error) =>
      resolve({ error: signal.aborted ? "no answer within the hook's budget" : error.message }),
    );
    outgoing.end(body);
  });
}
