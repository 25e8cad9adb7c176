import { type IncomingMessage, request } from "node:http";
import { RELAY_SSE_EVENTS } from "@ringback/protocol";
import type { ReceivedEvent } from "./sse-client.js";

/**
 * Connects to `GET /v1/stream` once, with `Last-Event-ID` in the header when given (what a reconnecting
 * EventSource sends), reads the frames up to and including `synced`, and disconnects.
 */
export async function readBacklog(
  baseUrl: string,
  token: string,
  lastEventId?: number,
): Promise<ReceivedEvent[]> {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  if (lastEventId !== undefined) headers["Last-Event-ID"] = String(lastEventId);
  const abort = new AbortController();
  const response = await fetch(new URL("/v1/stream", baseUrl), { headers, signal: abort.signal });
  if (response.status !== 200 || !response.body) throw new Error(`stream refused: ${response.status}`);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const events: ReceivedEvent[] = [];
  let text = "";
  try {
    while (events.at(-1)?.type !== RELAY_SSE_EVENTS.synced) {
      const { value, done } = await reader.read();
      if (done) throw new Error("The stream ended before its backlog was complete.");
      text = takeFrames(text + decoder.decode(value, { stream: true }), events);
    }
  } finally {
    abort.abort();
  }
  return events;
}

/** Parses each complete frame (ended by a blank line) at the start of `text` into `events`; returns the rest. */
function takeFrames(text: string, events: ReceivedEvent[]): string {
  let rest = text;
  let end = rest.indexOf("\n\n");
  while (end >= 0) {
    const event = parseFrame(rest.slice(0, end));
    if (event) events.push(event);
    rest = rest.slice(end + 2);
    end = rest.indexOf("\n\n");
  }
  return rest;
}

/** One SSE frame with an `event:` line; null for `retry:` hints and comments. */
export function parseFrame(frame: string): ReceivedEvent | null {
  const fields = new Map<string, string>();
  for (const line of frame.split("\n")) {
    const colon = line.indexOf(": ");
    if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 2));
  }
  const type = fields.get("event");
  if (type === undefined) return null;
  return { type, id: fields.get("id") ?? "", data: JSON.parse(fields.get("data") ?? "null") };
}

/**
 * `GET /v1/stream` read by hand (with `Last-Event-ID` when given), paused until its response is `resume()`d, as an app
 * that froze: every frame that arrives is parsed into `events`.
 */
export function pausedStream(baseUrl: string, token: string, lastEventId: number | null) {
  const events: ReceivedEvent[] = [];
  let text = "";
  let response: IncomingMessage | undefined;
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (lastEventId !== null) headers["last-event-id"] = String(lastEventId);
  const started = new Promise<IncomingMessage>((resolve, reject) => {
    const outgoing = request(new URL("/v1/stream", baseUrl), { headers }, (incoming) => {
      response = incoming;
      incoming.pause();
      incoming.setEncoding("utf8");
      incoming.on("data", (chunk: string) => {
        text = takeFrames(text + chunk, events);
      });
      incoming.on("error", () => {});
      resolve(incoming);
    });
    outgoing.on("error", reject);
    outgoing.end();
  });
  return { events, started, close: () => response?.destroy() };
}
