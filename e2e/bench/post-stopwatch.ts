import { connect, createServer, type Socket } from "node:net";
import { performance } from "node:perf_hooks";

/** One connection through the stopwatch: when its first request byte and its first answer byte passed (Unix ms). */
export interface Passage {
  requestAt: number;
  answerAt: number | null;
}

export interface PostStopwatch extends AsyncDisposable {
  readonly port: number;
  readonly passages: Passage[];
}

const HOST_LINE = /^host: 127\.0\.0\.1:\d+\r$/im;

function now(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * A TCP pass-through on 127.0.0.1 in front of the daemon: the hook is pointed at it (daemon.json's localPort in the
 * hook's own RINGBACK_HOME), so the moment the hook's `POST /report` starts is seen from outside the hook, without
 * changing the hook. Only the Host line is rewritten to the daemon's port.
 */
export async function startPostStopwatch(targetPort: number): Promise<PostStopwatch> {
  const passages: Passage[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((incoming) => {
    const passage: Passage = { requestAt: 0, answerAt: null };
    const outgoing = connect(targetPort, "127.0.0.1");
    for (const socket of [incoming, outgoing]) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      socket.on("error", () => socket.destroy());
    }
    let isFirstChunk = true;
    incoming.on("data", (chunk: Buffer) => {
      if (!isFirstChunk) {
        outgoing.write(chunk);
        return;
      }
      isFirstChunk = false;
      passage.requestAt = now();
      passages.push(passage);
      // The daemon accepts only its own loopback address as Host; the request is otherwise passed on unchanged.
      outgoing.write(
        Buffer.from(chunk.toString("latin1").replace(HOST_LINE, `Host: 127.0.0.1:${targetPort}\r`), "latin1"),
      );
    });
    incoming.on("end", () => outgoing.end());
    outgoing.once("data", () => {
      passage.answerAt = now();
    });
    outgoing.pipe(incoming);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (typeof address !== "object" || address === null) throw new Error("the stopwatch has no port");
  return {
    port: address.port,
    passages,
    [Symbol.asyncDispose]: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
