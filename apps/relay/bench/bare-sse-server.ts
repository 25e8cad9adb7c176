import { createServer, type ServerResponse } from "node:http";

/*
 * The bench's baseline: a bare `node:http` SSE fan-out with no store, no auth and no framework, speaking just
 * enough of the relay's API for the bench's clients. `GET /v1/stream` holds a stream open; `POST /v1/daemon/events`
 * turns the posted event into the relay's `call` frame (same fields, same bytes on the wire), writes that frame to
 * every stream, and answers 201. Run in its own process: `node bench/bare-sse-server.ts`.
 */

const streams = new Set<ServerResponse>();
const encoder = new TextEncoder();
let seq = 0;

const server = createServer((request, response) => {
  if (request.method === "GET" && request.url?.startsWith("/v1/stream")) {
    response.writeHead(200, {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-cache",
    });
    response.write("retry: 2000\n\n");
    streams.add(response);
    response.on("close", () => streams.delete(response));
    return;
  }
  if (request.method === "POST" && request.url === "/v1/daemon/events") {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, string>;
      seq++;
      const event = {
        seq,
        eventId: body.eventId,
        source: body.source,
        occurredAt: body.occurredAt,
        receivedAt: new Date().toISOString(),
        taskId: null,
        fromDeviceId: "bare",
        sealed: body.sealed,
        status: "pending",
      };
      const frame = encoder.encode(`id: ${seq}\nevent: call\ndata: ${JSON.stringify(event)}\n\n`);
      for (const stream of streams) stream.write(frame);
      response.writeHead(201, { "Content-Type": "application/json" });
      response.end(JSON.stringify({ eventId: body.eventId, seq }));
    });
    return;
  }
  response.writeHead(404).end();
});

server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  process.stdout.write(`bare sse listening on http://127.0.0.1:${port}\n`);
});
process.on("SIGTERM", () => {
  for (const stream of streams) stream.destroy();
  server.close(() => process.exit(0));
});
