import type { ClientRequest, IncomingMessage } from "node:http";
import { cutOffError, networkError } from "./network-error.js";

/**
 * A response's body as a web stream that hands over each chunk as it arrives (a token of a streamed answer must
 * not wait for the next). Reading pauses the socket when the reader falls behind. Aborting `signal` errors the
 * stream with its reason and cancelling the stream ends the same way: the request is destroyed, which closes the
 * connection at once, so the server stops working on an answer no one reads.
 */
export function responseBody(
  incoming: IncomingMessage,
  outgoing: ClientRequest,
  signal: AbortSignal,
): ReadableStream<Uint8Array> {
  let isSettled = false;
  let onAbort = () => {};
  const settle = () => {
    isSettled = true;
    signal.removeEventListener("abort", onAbort);
  };
  return new ReadableStream<Uint8Array>({
    start(controller) {
      const fail = (error: unknown) => {
        if (isSettled) return;
        settle();
        controller.error(error);
        outgoing.destroy();
      };
      onAbort = () => fail(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      incoming.on("data", (chunk: Buffer) => {
        if (isSettled) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) incoming.pause();
      });
      incoming.once("end", () => {
        if (isSettled) return;
        settle();
        controller.close();
      });
      incoming.once("error", (error) => fail(networkError(error)));
      // A socket closed in the middle of the body: Node emits `error` first in most cases, not in all.
      incoming.once("close", () => {
        if (!incoming.complete) fail(cutOffError());
      });
    },
    pull() {
      incoming.resume();
    },
    cancel() {
      if (isSettled) return;
      settle();
      outgoing.destroy();
    },
  });
}
