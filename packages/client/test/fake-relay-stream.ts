import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import { listenOnLoopback } from "@ringback/test-kit";

interface StreamRequest {
  readonly headers: IncomingHttpHeaders;
  readonly response: ServerResponse;
}

export interface FakeRelayStream extends AsyncDisposable {
  readonly origin: string;
  readonly requests: StreamRequest[];
  /** Resolves with the next `GET /v1/stream` request (the n-th, counting from 0). */
  request(index: number): Promise<StreamRequest>;
  close(): Promise<void>;
}

/**
 * A stand-in for the relay's `GET /v1/stream` on 127.0.0.1 and a random port: it records each request and leaves
 * the answer to the test (`sse(...)`, a status, or silence).
 */
export async function startFakeRelayStream(): Promise<FakeRelayStream> {
  const requests: StreamRequest[] = [];
  const waiters = new Map<number, (request: StreamRequest) => void>();
  const server = createServer((request, response) => {
    if (request.url !== "/v1/stream") {
      response.writeHead(404).end();
      return;
    }
    const entry = { headers: request.headers, response };
    requests.push(entry);
    waiters.get(requests.length - 1)?.(entry);
  });
  const { origin, close } = await listenOnLoopback(server);
  return {
    origin,
    requests,
    request(index) {
      const existing = requests[index];
      if (existing) return Promise.resolve(existing);
      return new Promise((resolve) => waiters.set(index, resolve));
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** Starts an SSE answer with a short reconnect time, so the library's own reconnects are quick in tests. */
export function openSse(response: ServerResponse): void {
  response.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
  response.write("retry: 20\n\n");
}

export function sendSse(response: ServerResponse, event: string, data: unknown, id?: number): void {
  response.write(
    `${id === undefined ? "" : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`,
  );
}
