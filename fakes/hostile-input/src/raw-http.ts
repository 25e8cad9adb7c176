import { connect } from "node:net";
import type { HostileRequest } from "./requests.js";

/** An answer read off a raw socket: the status line's code (0 when the server only closed) and the body. */
export interface RawAnswer {
  readonly status: number;
  readonly body: string;
}

/**
 * The request on the wire, sometimes with its framing broken: `framing` 1 says a Content-Length too small, 2 too
 * large (the server waits for bytes that never come), 3 cuts the request in half; anything else sends it whole.
 */
export function wireBytes(request: HostileRequest, framing: number, host = "127.0.0.1"): Uint8Array {
  const body =
    request.body === undefined
      ? new Uint8Array()
      : typeof request.body === "string"
        ? Buffer.from(request.body)
        : request.body;
  const length =
    framing === 1 ? Math.max(0, body.length - 3) : framing === 2 ? body.length + 10 : body.length;
  const headers = { host, ...request.headers };
  const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value.replace(/[\r\n]/g, "")}`);
  const target = request.path.replace(/[ \r\n]/g, "%20") || "/";
  const head = `${request.method} ${target} HTTP/1.1\r\n${lines.join("\r\n")}\r\ncontent-length: ${length}\r\nconnection: close\r\n\r\n`;
  const bytes = Buffer.concat([Buffer.from(head, "latin1"), body]);
  return framing === 3 ? bytes.subarray(0, Math.max(1, Math.floor(bytes.length / 2))) : bytes;
}

/** Sends `bytes` on a new connection to 127.0.0.1:`port`; what came back within `waitMs` (or until closed). */
export function sendRaw(port: number, bytes: Uint8Array, waitMs: number): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    const finish = () => {
      socket.destroy();
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(received)?.[1] ?? 0),
        body: received.slice(received.indexOf("\r\n\r\n") + 4),
      });
    };
    const timer = setTimeout(finish, waitMs);
    socket.on("close", () => {
      clearTimeout(timer);
      finish();
    });
    socket.on("data", (chunk) => {
      received += chunk.toString("utf8");
    });
    socket.on("error", () => undefined);
    socket.write(bytes);
  });
}

/**
 * The request handed to an app's `fetch` in process (`origin` + its path). Null when no HTTP client could send it
 * (a header value or method `Request` refuses; the raw-socket path sends those). An event stream's answer is read
 * up to its status only.
 */
export async function sendInProcess(
  fetch: (request: Request) => Response | Promise<Response>,
  origin: string,
  request: HostileRequest,
): Promise<RawAnswer | null> {
  let built: Request;
  try {
    built = new Request(`${origin}${request.path}`, {
      method: request.method,
      headers: request.headers,
      body: request.body,
    });
  } catch {
    return null;
  }
  const response = await fetch(built);
  if (response.headers.get("content-type")?.startsWith("text/event-stream")) {
    await response.body?.cancel();
    return { status: response.status, body: "" };
  }
  return { status: response.status, body: await response.text() };
}
