import { RELAY_SSE_EVENTS } from "@ringback/protocol";
import { EventSource } from "eventsource";
import { Waiters } from "./wait-until.js";

export interface ReceivedEvent {
  readonly type: string;
  readonly id: string;
  // biome-ignore lint/suspicious/noExplicitAny: SSE data of several shapes.
  readonly data: any;
}

/** A device's SSE stream through the `eventsource` package, with the device token added by a custom fetch. */
export class SseClient implements Disposable {
  readonly events: ReceivedEvent[] = [];
  /** HTTP statuses of failed connection attempts (401 after removal). */
  readonly failures: (number | undefined)[] = [];
  opens = 0;
  readonly #source: EventSource;
  readonly #waiters = new Waiters();

  constructor(baseUrl: string, token: string, options: { lastEventId?: number } = {}) {
    const url = new URL("/v1/stream", baseUrl);
    if (options.lastEventId !== undefined) url.searchParams.set("lastEventId", String(options.lastEventId));
    this.#source = new EventSource(url, {
      fetch: (input, init) =>
        fetch(input, { ...init, headers: { ...init?.headers, Authorization: `Bearer ${token}` } }),
    });
    for (const type of Object.values(RELAY_SSE_EVENTS)) {
      this.#source.addEventListener(type, (event) => {
        this.events.push({ type, id: event.lastEventId, data: JSON.parse(event.data) });
        this.#waiters.notify();
      });
    }
    this.#source.addEventListener("open", () => {
      this.opens++;
      this.#waiters.notify();
    });
    this.#source.addEventListener("error", (event) => {
      this.failures.push((event as unknown as { code?: number }).code);
      this.#waiters.notify();
    });
  }

  get isClosed(): boolean {
    return this.#source.readyState === this.#source.CLOSED;
  }

  of(type: string): ReceivedEvent[] {
    return this.events.filter((event) => event.type === type);
  }

  /** The first event (from the start) matching `type` and `match`. */
  waitFor(type: string, match: (data: ReceivedEvent["data"]) => boolean = () => true, timeoutMs?: number) {
    return this.#waiters.until(
      () => this.events.find((event) => event.type === type && match(event.data)),
      `an SSE "${type}" event`,
      timeoutMs,
    );
  }

  /** Waits until `count` `synced` events have arrived (one per (re)connection). */
  waitForSynced(count = 1, timeoutMs?: number) {
    return this.#waiters.until(
      () => (this.of(RELAY_SSE_EVENTS.synced).length >= count ? true : undefined),
      `${count} synced events`,
      timeoutMs,
    );
  }

  waitUntil<T>(check: () => T | undefined, what: string, timeoutMs?: number): Promise<T> {
    return this.#waiters.until(check, what, timeoutMs);
  }

  close(): void {
    this.#source.close();
  }

  [Symbol.dispose](): void {
    this.close();
  }
}
