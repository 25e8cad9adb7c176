import { RELAY_SSE_EVENTS } from "@ringback/protocol";
import { Changes, eventually } from "@ringback/test-kit";
import { EventSource } from "eventsource";

export interface StreamEvent {
  type: string;
  id: string;
  // biome-ignore lint/suspicious/noExplicitAny: SSE data of several shapes, checked by each test.
  data: any;
}

/**
 * A paired device's SSE stream (`GET /v1/stream`) through the `eventsource` package, the device token added by
 * a custom fetch; it reconnects by itself with `Last-Event-ID`, as a browser does.
 */
export class DeviceStream {
  readonly events: StreamEvent[] = [];
  opens = 0;
  readonly #source: EventSource;
  readonly #changes = new Changes();

  constructor(relayUrl: string, token: string) {
    this.#source = new EventSource(`${relayUrl}/v1/stream`, {
      fetch: (input, init) =>
        fetch(input, { ...init, headers: { ...init?.headers, authorization: `Bearer ${token}` } }),
    });
    for (const type of Object.values(RELAY_SSE_EVENTS)) {
      this.#source.addEventListener(type, (event) => {
        this.events.push({ type, id: event.lastEventId, data: JSON.parse(event.data) });
        this.#changes.notify();
      });
    }
    this.#source.addEventListener("open", () => {
      this.opens += 1;
    });
  }

  of(type: string): StreamEvent[] {
    return this.events.filter((event) => event.type === type);
  }

  /** The first event of `type` matching `match`, waiting for it (`checks`: see the kit's `eventually`). */
  waitFor(
    type: string,
    match: (data: StreamEvent["data"]) => boolean = () => true,
    checks = 750,
  ): Promise<StreamEvent> {
    return eventually(() => this.events.find((event) => event.type === type && match(event.data)), {
      what: `an SSE "${type}" event`,
      checks,
      on: this.#changes,
    });
  }

  /** Waits for the `synced` event of the `count`th (re)connection. */
  async waitForSynced(count = 1): Promise<void> {
    await eventually(() => this.of(RELAY_SSE_EVENTS.synced).length >= count, {
      what: `${count} synced events`,
      checks: 750,
      on: this.#changes,
    });
  }

  close(): void {
    this.#source.close();
  }
}
