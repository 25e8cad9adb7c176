import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the hook sent, and how the real daemon answered it. */
export interface TappedRequest {
  method: string;
  path: string;
  /** The request body parsed as JSON (the hook always sends JSON). */
  body: unknown;
  hasOrigin: boolean;
  /** The daemon's status, or 0 when it could not be reached. */
  status: number;
  answer: string;
}

export interface ReportTap {
  port: number;
  requests: TappedRequest[];
  /** Where requests go: the real daemon's port, known once it listens. */
  forwardTo(port: number): void;
  close(): Promise<void>;
}

async function readAll(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString("utf8"));
  } catch {
    return bytes.toString("utf8");
  }
}

/**
 * A recording pass-through on 127.0.0.1 in front of the real daemon: the hook finds its port in daemon.json,
 * every request is forwarded whole (only `Host` names the daemon's own port, which its DNS-rebinding guard
 * requires) and recorded with the daemon's answer. It counts what the hook sent, which the daemon would hide:
 * the daemon dedupes a turn sent twice.
 */
export async function startReportTap(): Promise<ReportTap> {
  const requests: TappedRequest[] = [];
  let daemonPort: number | undefined;

  async function forward(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    const body = await readAll(incoming);
    const record: TappedRequest = {
      method: incoming.method ?? "GET",
      path: incoming.url ?? "/",
      body: parseJson(body),
      hasOrigin: incoming.headers.origin !== undefined,
      status: 0,
      answer: "",
    };
    requests.push(record);
    if (daemonPort === undefined) {
      outgoing.writeHead(503).end();
      return;
    }
    const port = daemonPort;
    await new Promise<void>((resolve) => {
      const upstream = httpRequest(
        {
          host: "127.0.0.1",
          port,
          method: record.method,
          path: record.path,
          headers: { ...incoming.headers, host: `127.0.0.1:${port}` },
          agent: false,
        },
        (answer) => {
          void readAll(answer).then((answerBody) => {
            record.status = answer.statusCode ?? 0;
            record.answer = answerBody.toString("utf8");
            outgoing.writeHead(record.status, { "content-type": answer.headers["content-type"] ?? "" });
            outgoing.end(answerBody);
            resolve();
          });
        },
      );
      upstream.once("error", (error) => {
        record.answer = error.message;
        outgoing.writeHead(502).end();
        resolve();
      });
      upstream.end(body);
    });
  }

  const server = createServer((incoming, outgoing) => {
    forward(incoming, outgoing).catch(() => outgoing.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    forwardTo: (port) => {
      daemonPort = port;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
