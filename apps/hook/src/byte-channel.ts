/**
 * A byte stream as the report path uses it, whatever carries it: libuv's own handle (see libuv-transport.ts) or
 * a Node stream (stdin, a node:net socket).
 */
export interface ByteChannel {
  /**
   * `onChunk` gets each chunk read; `onEnd` is called once, without a reason at the end of the stream and with one
   * when it failed (a refused connection, a failed read or write).
   */
  read(onChunk: (chunk: Buffer) => void, onEnd: (error?: string) => void): void;
  /** Sends `text` as UTF-8; a channel still connecting sends it once connected. A failure reaches `onEnd`. */
  write(text: string): void;
  /** Stops reading and releases what the channel owns. */
  close(): void;
}

/** What carries the hook's two streams: the Stop payload on stdin, and the report to the daemon. */
export interface Transport {
  /** Named in the hook's debug log. */
  name: string;
  /** stdin as a channel, or `undefined` when this transport cannot carry what stdin is here. */
  stdin(): ByteChannel | undefined;
  /** A connection to the daemon on 127.0.0.1. */
  connect(port: number): ByteChannel;
}

type DuplexLike = NodeJS.ReadableStream & { write?(text: string): unknown; destroy?(): unknown };

/** A Node stream as a channel. `owned` streams are destroyed on `close`; the others only lose our listeners. */
export function streamChannel(stream: DuplexLike, owned: boolean): ByteChannel {
  let unsubscribe = () => {};
  return {
    read(onChunk, onEnd) {
      let ended = false;
      const onData = (chunk: Buffer | string) =>
        onChunk(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
      const end = (error?: string) => {
        if (ended) return;
        ended = true;
        onEnd(error);
      };
      const onStreamEnd = () => end();
      const onError = (error: Error) => end(error.message);
      stream.on("data", onData).on("end", onStreamEnd).on("error", onError);
      unsubscribe = () => {
        stream
          .removeListener("data", onData)
          .removeListener("end", onStreamEnd)
          .removeListener("error", onError);
      };
    },
    write(text) {
      stream.write?.(text);
    },
    close() {
      unsubscribe();
      if (owned) stream.destroy?.();
    },
  };
}

/**
 * `primary`, with `fallback` opening any stream `primary` throws on while opening it: a change in what the fast
 * transport relies on then costs speed, not a report. Nothing has been sent when opening throws. The name says
 * when the fallback was taken, for the debug log.
 */
export function withFallback(primary: Transport, fallback: Transport): Transport {
  let primaryFailed = false;
  const open = <T>(fromPrimary: () => T, fromFallback: () => T): T => {
    try {
      return fromPrimary();
    } catch {
      primaryFailed = true;
      return fromFallback();
    }
  };
  return {
    get name() {
      return primaryFailed ? `${fallback.name} (${primary.name} failed to open)` : primary.name;
    },
    stdin: () => open(primary.stdin, fallback.stdin),
    connect: (port) =>
      open(
        () => primary.connect(port),
        () => fallback.connect(port),
      ),
  };
}
