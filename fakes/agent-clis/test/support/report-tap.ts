import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { LOCAL_ANSWER_PROOF_HEADER, LOCAL_REQUEST_PROOF_HEADER } from "@ringback/protocol";
import { forwardProof } from "./proof-relay.js";

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
  /** Where requests go (the real daemon's port, known once it listens) and the local key it signs them with. */
  forwardTo(port: number, localKey: string): void;
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
  let daemon: { port: number; localKey: string } | undefined;

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
    if (daemon === undefined) {
      outgoing.writeHead(503).end();
      return;
    }
    const { port, localKey } = daemon;
    const proof = forwardProof(
      incoming.headers[LOCAL_REQUEST_PROOF_HEADER] as string | undefined,
      { ...record, body },
      port,
      localKey,
    );
    await new Promise<void>((resolve) => {
      const upstream = httpRequest(
        {
          host: "127.0.0.1",
          port,
          method: record.method,
          path: record.path,
          headers: {
            ...incoming.headers,
            host: `127.0.0.1:${port}`,
            ...(proof ? { [LOCAL_REQUEST_PROOF_HEADER]: proof.requestHeader } : {}),
          },
          agent: false,
        },
        (answer) => {
          void readAll(answer).then((answerBody) => {
            record.status = answer.statusCode ?? 0;
            record.answer = answerBody.toString("utf8");
            outgoing.writeHead(record.status, {
              "content-type": answer.headers["content-type"] ?? "",
              ...(proof
                ? { [LOCAL_ANSWER_PROOF_HEADER]: proof.answerHeader(record.status, answerBody) }
                : {}),
            });
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
    forwardTo: (port, localKey) => {
      daemon = { port, localKey };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
