import { RELAY_SSE_EVENTS } from "@ringback/protocol";
import { Changes, eventually } from "@ringback/test-kit";
import { EventSource } from "eventsource";

export interface ReceivedEvent {
  readonly type: string;
  readonly id: string;
  // biome-ignore lint/suspicious/noExplicitAny: SSE data of several shapes.
  readonly data: any;
}

/**
 * A device's SSE stream through the `eventsource` package, with the device token added by a custom fetch. An
 * EventSource gives up on an answer other than 200; with `isPersistent` the client starts over after any refusal
 * but 401 (from the last id it saw), as the companion's own stream does.
 */
export class SseClient implements Disposable {
  readonly events: ReceivedEvent[] = [];
  /** HTTP statuses of failed connection attempts (401 after removal). */
  readonly failures: (number | undefined)[] = [];
  opens = 0;
  #source: EventSource;
  readonly #changes = new Changes();
  readonly #baseUrl: string;
  readonly #token: string;
  readonly #isPersistent: boolean;
  #isClosedByUs = false;

  constructor(
    baseUrl: string,
    token: string,
    options: { lastEventId?: number; isPersistent?: boolean } = {},
  ) {
    this.#baseUrl = baseUrl;
    this.#token = token;
    this.#isPersistent = options.isPersistent ?? false;
    this.#source = this.#connect(options.lastEventId);
  }

  #connect(lastEventId: number | undefined): EventSource {
    const url = new URL("/v1/stream", this.#baseUrl);
    if (lastEventId !== undefined) url.searchParams.set("lastEventId", String(lastEventId));
    const token = this.#token;
    const source = new EventSource(url, {
      fetch: (input, init) =>
        fetch(input, { ...init, headers: { ...init?.headers, Authorization: `Bearer ${token}` } }),
    });
    this.#source = source;
    for (const type of Object.values(RELAY_SSE_EVENTS)) {
      this.#source.addEventListener(type, (event) => {
        this.events.push({ type, id: event.lastEventId, data: JSON.parse(event.data) });
        this.#changes.notify();
      });
    }
    this.#source.addEventListener("open", () => {
      this.opens++;
      this.#changes.notify();
    });
    this.#source.addEventListener("error", (event) => {
      const code = (event as unknown as { code?: number }).code;
      this.failures.push(code);
      this.#changes.notify();
      if (this.#isPersistent && !this.#isClosedByUs && code !== 401 && source.readyState === source.CLOSED)
        setTimeout(() => {
          if (!this.#isClosedByUs) this.#connect(this.#lastSeq());
        }, 100);
    });
    return source;
  }

  #lastSeq(): number | undefined {
    const ids = this.events.map((event) => Number(event.id)).filter((id) => Number.isInteger(id) && id > 0);
    return ids.length > 0 ? Math.max(...ids) : undefined;
  }

  get isClosed(): boolean {
    return this.#source.readyState === this.#source.CLOSED;
  }

  of(type: string): ReceivedEvent[] {
    return this.events.filter((event) => event.type === type);
  }

  /** The first event (from the start) matching `type` and `match` (`checks`: see the kit's `eventually`). */
  waitFor(type: string, match: (data: ReceivedEvent["data"]) => boolean = () => true, checks?: number) {
    return this.waitUntil(
      () => this.events.find((event) => event.type === type && match(event.data)),
      `an SSE "${type}" event`,
      checks,
    );
  }

  /** Waits until `count` `synced` events have arrived (one per (re)connection). */
  waitForSynced(count = 1, checks?: number) {
    return this.waitUntil(
      () => this.of(RELAY_SSE_EVENTS.synced).length >= count,
      `${count} synced events`,
      checks,
    );
  }

  /** Re-checked on every event, open and failure of the stream. */
  waitUntil<T>(check: () => T | Promise<T>, what: string, checks?: number) {
    return eventually(check, { what, checks, on: this.#changes });
  }

  close(): void {
    this.#isClosedByUs = true;
    this.#source.close();
  }

  [Symbol.dispose](): void {
    this.close();
  }
}
