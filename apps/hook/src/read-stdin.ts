import type { ByteChannel } from "./byte-channel.js";

/** Stop payloads carry the final reply; anything larger than this is not a payload. */
const STDIN_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Reads the whole Stop payload (one JSON object, then EOF). Resolves `undefined` when the input is larger
 * than `STDIN_MAX_BYTES`, reading fails, or `signal` aborts first (an agent that never closes stdin must not hold
 * the hook).
 */
export function readStdin(channel: ByteChannel, signal: AbortSignal): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (value: string | undefined) => {
      if (done) return;
      done = true;
      signal.removeEventListener("abort", onAbort);
      resolve(value);
    };
    const onAbort = () => finish(undefined);
    if (signal.aborted) return finish(undefined);
    signal.addEventListener("abort", onAbort);
    channel.read(
      (chunk) => {
        if (done) return;
        size += chunk.length;
        if (size > STDIN_MAX_BYTES) finish(undefined);
        else chunks.push(chunk);
      },
      (error) => finish(error === undefined ? Buffer.concat(chunks).toString("utf8") : undefined),
    );
  });
}
