import {
  type CallDelivery,
  CallDelivery as CallDeliverySchema,
  type CallStatusChange,
  CallStatusChange as CallStatusChangeSchema,
  RELAY_SSE_EVENTS,
  RELAY_SSE_HEARTBEAT_MS,
  type RelayedEvent,
  RelayedEvent as RelayedEventSchema,
  type RelayedFleetState,
  RelayedFleetState as RelayedFleetStateSchema,
  type ReplyStatusChange,
  ReplyStatusChange as ReplyStatusChangeSchema,
  StreamSynced,
} from "@ringback/protocol";
import { EventSource, type FetchLike, type FetchLikeResponse } from "eventsource";
import {
  type Clock,
  PLATFORM_TIMERS,
  SYSTEM_CLOCK,
  type TimerHandle,
  type Timers,
} from "../runtime/timers.js";

/** Delays before reconnecting after the relay refused the stream (not 401), then the last one repeats. */
export const STREAM_RECONNECT_DELAYS_MS = [1_000, 2_000, 5_000, 10_000, 30_000] as const;
/**
 * A stream silent for this long is dead (a sleeping laptop, a proxy that dropped it): reconnect. Longer than two
 * relay heartbeats, so one late heartbeat is not a disconnect.
 */
export const STREAM_SILENCE_LIMIT_MS = 2.5 * RELAY_SSE_HEARTBEAT_MS;

export type StreamConnection = "connecting" | "open" | "offline";

export interface SyncedContext {
  /** The `Last-Event-ID` this connection resumed from; null for a first connect (the relay sent the open calls). */
  readonly resumedFrom: string | null;
  /** The calls the relay sent before `synced` on this connection. */
  readonly backlogEventIds: readonly string[];
}

/** Called in stream order; the next event waits until the previous handler's promise settles. */
export interface CallStreamHandlers {
  onCall(event: RelayedEvent): void | Promise<void>;
  onCallStatus(change: CallStatusChange): void | Promise<void>;
  /** A call's delivery outcome on one device (replayed on a resume like every other event). */
  onCallDelivery?(delivery: CallDelivery): void | Promise<void>;
  onReplyStatus?(change: ReplyStatusChange): void | Promise<void>;
  onSynced?(context: SyncedContext): void | Promise<void>;
  /**
   * A computer's sealed fleet state: every current one after each `synced`, then each new one. It has no id (a state,
   * not an event), so it may come again or older than one already held: keep the newest by its sealed `version`.
   */
  onFleet?(state: RelayedFleetState): void | Promise<void>;
  /** The SSE id of the last event handled, to keep for a resume after a restart. */
  onLastEventId?(id: string): void | Promise<void>;
  onConnection?(state: StreamConnection): void;
  /** 401 or `device-removed`: the stream is closed for good; the app returns to the welcome page. */
  onDeviceRemoved(): void;
}

export interface CallStreamOptions {
  readonly serverUrl: string;
  readonly deviceToken: string;
  readonly lastEventId: string | null;
  readonly handlers: CallStreamHandlers;
  readonly fetch?: typeof fetch;
  readonly reconnectDelaysMs?: readonly number[];
  readonly silenceLimitMs?: number;
  /** Reconnect backoff and the silence watchdog run on these (the platform's by default). */
  readonly timers?: Timers;
  readonly clock?: Clock;
}

/**
 * The device's SSE subscription (`GET /v1/stream`): sends the device token and `Last-Event-ID` on every
 * (re)connect, hands events over in order, reconnects with backoff, and stops for good on 401.
 */
export class CallStream {
  readonly #options: CallStreamOptions;
  readonly #delays: readonly number[];
  readonly #silenceLimitMs: number;
  #source: EventSource | null = null;
  #lastEventId: string | null;
  #resumedFrom: string | null = null;
  #backlog: string[] = [];
  #isSynced = false;
  #queue: Promise<void> = Promise.resolve();
  #failures = 0;
  readonly #timers: Timers;
  readonly #clock: Clock;
  #reconnectTimer: TimerHandle | undefined;
  #watchdog: TimerHandle | undefined;
  #lastActivityAt: number;
  #isClosed = false;

  constructor(options: CallStreamOptions) {
    this.#options = options;
    this.#delays = options.reconnectDelaysMs ?? STREAM_RECONNECT_DELAYS_MS;
    this.#silenceLimitMs = options.silenceLimitMs ?? STREAM_SILENCE_LIMIT_MS;
    this.#lastEventId = options.lastEventId;
    this.#timers = options.timers ?? PLATFORM_TIMERS;
    this.#clock = options.clock ?? SYSTEM_CLOCK;
    this.#lastActivityAt = this.#clock.now();
    if (options.silenceLimitMs === undefined && this.#silenceLimitMs <= RELAY_SSE_HEARTBEAT_MS) {
      throw new Error("The stream's silence limit must be longer than the relay's heartbeat.");
    }
  }

  get lastEventId(): string | null {
    return this.#lastEventId;
  }

  start(): void {
    if (this.#isClosed || this.#source) return;
    this.#connect();
    this.#watchdog = this.#timers.setInterval(
      () => this.#checkSilence(),
      Math.max(1, this.#silenceLimitMs / 2),
    );
  }

  /** Closes the stream for good; handlers already queued still run. */
  close(): void {
    this.#isClosed = true;
    this.#timers.clearTimeout(this.#reconnectTimer);
    this.#timers.clearInterval(this.#watchdog);
    this.#source?.close();
    this.#source = null;
  }

  /** Settles once every event received so far has been handled. */
  idle(): Promise<void> {
    return this.#queue;
  }

  #connect(): void {
    this.#lastActivityAt = this.#clock.now();
    this.#options.handlers.onConnection?.("connecting");
    const source = new EventSource(`${this.#options.serverUrl.replace(/\/+$/, "")}/v1/stream`, {
      fetch: this.#fetch,
    });
    this.#source = source;
    source.onopen = () => {
      this.#failures = 0;
      this.#options.handlers.onConnection?.("open");
    };
    source.onerror = (event) => this.#onError(source, event.code);
    source.addEventListener(RELAY_SSE_EVENTS.call, (event) =>
      this.#enqueue(event.lastEventId, () => {
        const relayed = RelayedEventSchema.parse(JSON.parse(event.data));
        if (!this.#isSynced) this.#backlog.push(relayed.eventId);
        return this.#options.handlers.onCall(relayed);
      }),
    );
    source.addEventListener(RELAY_SSE_EVENTS.callStatus, (event) =>
      this.#enqueue(event.lastEventId, () =>
        this.#options.handlers.onCallStatus(CallStatusChangeSchema.parse(JSON.parse(event.data))),
      ),
    );
    source.addEventListener(RELAY_SSE_EVENTS.callDelivery, (event) =>
      this.#enqueue(event.lastEventId, () =>
        this.#options.handlers.onCallDelivery?.(CallDeliverySchema.parse(JSON.parse(event.data))),
      ),
    );
    source.addEventListener(RELAY_SSE_EVENTS.replyStatus, (event) =>
      this.#enqueue(event.lastEventId, () =>
        this.#options.handlers.onReplyStatus?.(ReplyStatusChangeSchema.parse(JSON.parse(event.data))),
      ),
    );
    source.addEventListener(RELAY_SSE_EVENTS.synced, (event) =>
      this.#enqueue(event.lastEventId, () => {
        StreamSynced.parse(JSON.parse(event.data));
        this.#isSynced = true;
        return this.#options.handlers.onSynced?.({
          resumedFrom: this.#resumedFrom,
          backlogEventIds: [...this.#backlog],
        });
      }),
    );
    source.addEventListener(RELAY_SSE_EVENTS.fleet, (event) =>
      this.#enqueue("", () =>
        this.#options.handlers.onFleet?.(RelayedFleetStateSchema.parse(JSON.parse(event.data))),
      ),
    );
    source.addEventListener(RELAY_SSE_EVENTS.deviceRemoved, () => this.#deviceRemoved());
  }

  /** The device token and the last handled id on every request, and a note of every byte that arrives. */
  readonly #fetch: FetchLike = async (url, init) => {
    const fetchImpl = this.#options.fetch ?? globalThis.fetch;
    const headers: Record<string, string> = {
      ...init.headers,
      Authorization: `Bearer ${this.#options.deviceToken}`,
    };
    const resumedFrom = this.#lastEventId;
    if (resumedFrom !== null) headers["Last-Event-ID"] = resumedFrom;
    else delete headers["Last-Event-ID"];
    // Every request is a new connection (the library reconnects through here too). Its backlog starts after the
    // events of the previous connection that are still waiting in the queue.
    this.#enqueue("", () => {
      this.#resumedFrom = resumedFrom;
      this.#backlog = [];
      this.#isSynced = false;
    });
    const response = await fetchImpl(url, { ...init, headers });
    const touch = () => {
      this.#lastActivityAt = this.#clock.now();
    };
    touch();
    const body = response.body?.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          touch();
          controller.enqueue(chunk);
        },
      }),
    );
    const watched: FetchLikeResponse = {
      body: body ?? null,
      url: response.url,
      status: response.status,
      redirected: response.redirected,
      headers: response.headers,
    };
    return watched;
  };

  #enqueue(id: string, handle: () => void | Promise<void>): void {
    this.#queue = this.#queue
      .then(async () => {
        if (this.#isClosed) return;
        await handle();
        if (id) {
          this.#lastEventId = id;
          await this.#options.handlers.onLastEventId?.(id);
        }
      })
      .catch((error: unknown) => {
        // One bad event must not stop the stream; it is skipped (its id is not kept, so a resume sends it again).
        console.error("Could not handle a relay event.", error);
      });
  }

  #onError(source: EventSource, code: number | undefined): void {
    if (this.#isClosed || source !== this.#source) return;
    if (code === 401) {
      this.#deviceRemoved();
      return;
    }
    this.#options.handlers.onConnection?.("offline");
    // CONNECTING: the library reconnects by itself (network error, stream ended). CLOSED: the relay refused the
    // stream with a status other than 200; try again with backoff.
    if (source.readyState === source.CLOSED) this.#reconnectLater();
  }

  #reconnectLater(): void {
    this.#source?.close();
    this.#source = null;
    const delay = this.#delays[Math.min(this.#failures, this.#delays.length - 1)] ?? 0;
    this.#failures += 1;
    this.#timers.clearTimeout(this.#reconnectTimer);
    this.#reconnectTimer = this.#timers.setTimeout(() => {
      if (!this.#isClosed) this.#connect();
    }, delay);
  }

  #checkSilence(): void {
    if (this.#isClosed || !this.#source || this.#source.readyState !== this.#source.OPEN) return;
    if (this.#clock.now() - this.#lastActivityAt <= this.#silenceLimitMs) return;
    this.#options.handlers.onConnection?.("offline");
    this.#source.close();
    this.#source = null;
    this.#connect();
  }

  #deviceRemoved(): void {
    if (this.#isClosed) return;
    this.close();
    this.#options.handlers.onDeviceRemoved();
  }
}
