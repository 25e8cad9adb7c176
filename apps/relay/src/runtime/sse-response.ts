import { ServerResponse } from "node:http";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import type { Context } from "hono";
import type { RelayEnv } from "../relay-env.js";
import type { SseConnection } from "./sse-connection.js";
import { nodeSink, webSink } from "./sse-sinks.js";

const SSE_HEADERS = {
  "Content-Type": "text/event-stream; charset=utf-8",
  "Cache-Control": "no-cache, no-transform",
  "X-Accel-Buffering": "no",
} as const;

/**
 * The response of an SSE stream. Under node the stream writes straight to the socket (the headers the middleware
 * set so far, CORS among them, go out with it); in `app.request()` it is a web stream body.
 */
export function sseResponse(c: Context<RelayEnv>, connection: SseConnection): Response {
  const outgoing = c.env?.outgoing;
  if (outgoing instanceof ServerResponse) {
    const headers: Record<string, string> = {};
    c.res.headers.forEach((value, name) => {
      headers[name] = value;
    });
    connection.attach(nodeSink(outgoing, { ...headers, ...SSE_HEADERS }, () => connection.finish()));
    return RESPONSE_ALREADY_SENT;
  }
  const { sink, stream } = webSink(() => connection.finish());
  connection.attach(sink);
  return new Response(stream, { status: 200, headers: SSE_HEADERS });
}
