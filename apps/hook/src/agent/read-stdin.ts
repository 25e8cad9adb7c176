/** Stop payloads carry the final reply; anything larger than this is not a payload. */
const STDIN_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Reads the whole Stop payload (one JSON object, then EOF). Resolves `undefined` when the input is larger
 * than `STDIN_MAX_BYTES`, reading fails, or `signal` aborts first (an agent that never closes stdin must not hold
 * the hook).
 */
export function readStdin(stream: NodeJS.ReadableStream, signal: AbortSignal): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (value: string | undefined) => {
      stream.removeListener("data", onData);
      stream.removeListener("end", onEnd);
      stream.removeListener("error", onError);
      signal.removeEventListener("abort", onAbort);
      resolve(value);
    };
    const onData = (chunk: Buffer | string) => {
      const buffer = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      size += buffer.length;
      if (size > STDIN_MAX_BYTES) finish(undefined);
      else chunks.push(buffer);
    };
    const onEnd = () => finish(Buffer.concat(chunks).toString("utf8"));
    const onError = () => finish(undefined);
    const onAbort = () => finish(undefined);
    if (signal.aborted) return finish(undefined);
    stream.on("data", onData);
    stream.on("end", onEnd);
    stream.on("error", onError);
    signal.addEventListener("abort", onAbort);
  });
}
