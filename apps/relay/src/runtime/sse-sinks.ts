import type { ServerResponse } from "node:http";

/** Where an SSE stream's bytes go: the client's socket, or a web stream in `app.request()` tests. */
export interface SseSink {
  write(bytes: Uint8Array): void;
  /** Bytes written but not yet taken by the socket: what a client that stopped reading makes the relay hold. */
  readonly pendingBytes: number;
  /** Ends the stream after what was written. */
  end(): void;
  /** Drops the stream at once, pending bytes and all. */
  destroy(): void;
  /** Resolves once the client has taken what was written (at once when little waits), or the stream has ended. */
  drained(): Promise<void>;
}

/**
 * Writes straight to node's response: one socket write per batch of frames, no web stream in between. `onClosed`
 * runs once the client has gone or the stream was ended.
 */
export function nodeSink(
  outgoing: ServerResponse,
  headers: Readonly<Record<string, string>>,
  onClosed: () => void,
): SseSink {
  outgoing.writeHead(200, headers);
  outgoing.on("close", onClosed);
  return new NodeSink(outgoing);
}

/** A class, not an object of closures: the methods are shared by every stream (thousands are open and idle). */
class NodeSink implements SseSink {
  readonly #outgoing: ServerResponse;

  constructor(outgoing: ServerResponse) {
    this.#outgoing = outgoing;
  }

  write(bytes: Uint8Array): void {
    this.#outgoing.write(bytes);
  }

  get pendingBytes(): number {
    return this.#outgoing.writableLength;
  }

  end(): void {
    this.#outgoing.end();
  }

  destroy(): void {
    this.#outgoing.destroy();
  }

  drained(): Promise<void> {
    const outgoing = this.#outgoing;
    if (!outgoing.writableNeedDrain || outgoing.destroyed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        outgoing.off("drain", done);
        outgoing.off("close", done);
        resolve();
      };
      outgoing.on("drain", done);
      outgoing.on("close", done);
    });
  }
}

/** A web `ReadableStream` for a `Response` body, where no node response exists (`app.request()`). */
export function webSink(onClosed: () => void): { sink: SseSink; stream: ReadableStream<Uint8Array> } {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let waiters: (() => void)[] = [];
  const wake = () => {
    const woken = waiters;
    waiters = [];
    for (const resolve of woken) resolve();
  };
  const stream = new ReadableStream<Uint8Array>(
    {
      start: (started) => {
        controller = started;
      },
      // Called when the reader wants more and everything written was taken.
      pull: wake,
      cancel: () => {
        wake();
        onClosed();
      },
    },
    // A zero high-water mark: the queue's size is exactly what the reader has not taken yet.
    new ByteLengthQueuingStrategy({ highWaterMark: 0 }),
  );
  const settle = (action: () => void) => {
    try {
      action();
    } catch {
      // Already closed or cancelled by the reader.
    }
    wake();
    onClosed();
  };
  return {
    stream,
    sink: {
      write: (bytes) => {
        try {
          controller.enqueue(bytes);
        } catch {
          onClosed();
        }
      },
      get pendingBytes() {
        return Math.max(0, -(controller.desiredSize ?? 0));
      },
      end: () => settle(() => controller.close()),
      destroy: () => settle(() => controller.error(new Error("SSE stream dropped"))),
      drained: () =>
        (controller.desiredSize ?? 0) >= 0
          ? Promise.resolve()
          : new Promise<void>((resolve) => {
              waiters.push(resolve);
            }),
    },
  };
}
