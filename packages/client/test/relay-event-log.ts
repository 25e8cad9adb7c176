import type { IncomingMessage, ServerResponse } from "node:http";
import type { RelayedEvent } from "@ringback/protocol";

interface Entry {
  readonly seq: number;
  readonly event: string;
  readonly data: unknown;
}

const frame = (entry: Entry) =>
  `id: ${entry.seq}\nevent: ${entry.event}\ndata: ${JSON.stringify(entry.data)}\n\n`;

/**
 * The account's event log of a stand-in relay, as the relay keeps it: entries numbered in order and written to every
 * open `GET /v1/stream`; a stream opens with its backlog (on a first connect the calls still pending, on a resume
 * every entry after its Last-Event-ID), then `synced`.
 */
export class RelayEventLog {
  readonly #entries: Entry[] = [];
  readonly #streams = new Set<ServerResponse>();
  #seq = 0;

  /** The last entry's number (0 before the first). */
  get seq(): number {
    return this.#seq;
  }

  /** Adds an entry of type `event` (its data made with its number) and writes it to every open stream. */
  append(event: string, data: (seq: number) => unknown): void {
    this.#seq += 1;
    const entry = { seq: this.#seq, event, data: data(this.#seq) };
    this.#entries.push(entry);
    for (const stream of this.#streams) stream.write(frame(entry));
  }

  /** Answers `GET /v1/stream` and keeps it open; `isPending` says which calls a first connect still gets. */
  openStream(
    request: IncomingMessage,
    response: ServerResponse,
    retryMs: number,
    isPending: (eventId: string) => boolean,
  ): void {
    const lastEventId = request.headers["last-event-id"];
    const from = typeof lastEventId === "string" ? Number(lastEventId) : null;
    response.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache" });
    response.write(`retry: ${retryMs}\n\n`);
    // A first connect gets the calls still open; a resume gets every entry after its id.
    const backlog =
      from === null
        ? this.#entries.filter(
            (entry) => entry.event === "call" && isPending((entry.data as RelayedEvent).eventId),
          )
        : this.#entries.filter((entry) => entry.seq > from);
    for (const entry of backlog) response.write(frame(entry));
    response.write(`id: ${this.#seq}\nevent: synced\ndata: ${JSON.stringify({ seq: this.#seq })}\n\n`);
    this.#streams.add(response);
    request.on("close", () => this.#streams.delete(response));
  }

  /** Ends every open stream. */
  closeStreams(): void {
    for (const stream of this.#streams) stream.destroy();
  }
}
