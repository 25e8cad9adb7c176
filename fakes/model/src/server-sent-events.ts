import type { ServerResponse } from "node:http";

/** One server-sent event: its `event:` name and its `data:` object. */
export interface ServerSentEvent {
  event: string;
  data: unknown;
}

/** Answers 200 `text/event-stream` with every event, then ends the response. */
export function sendServerSentEvents(response: ServerResponse, events: readonly ServerSentEvent[]): void {
  response.writeHead(200, {
    "content-type": "text/event-stream",
    "cache-control": "no-cache",
    connection: "keep-alive",
  });
  for (const { event, data } of events) {
    response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }
  response.end();
}
