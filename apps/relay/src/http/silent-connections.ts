import type { IncomingMessage, Server } from "node:http";
import type { Socket } from "node:net";

/**
 * Closes a connection that has not sent a whole request head within `headersMs` of opening. Node's own
 * `headersTimeout` does not reliably cover a connection that has sent nothing at all (a plain `node:http` server in
 * a fresh process keeps one open for good), so the bound is kept here too. With TLS the clock starts once the
 * handshake is done (the handshake has its own bound, `handshakeTimeout`).
 */
export function cutSilentConnections(server: Server, headersMs: number, isTls: boolean): void {
  const waiting = new WeakMap<Socket, NodeJS.Timeout>();
  // One listener shared by every socket, removed once a request starts: an idle stream keeps neither it nor its
  // cleared timer (thousands of streams are open at once).
  function closed(this: Socket): void {
    clearTimeout(waiting.get(this));
    waiting.delete(this);
  }
  server.on(isTls ? "secureConnection" : "connection", (socket: Socket) => {
    const timer = setTimeout(() => socket.destroy(), headersMs);
    timer.unref();
    waiting.set(socket, timer);
    // A "close" listener, not a "data" one: that would take the socket off node's fast parser path.
    socket.on("close", closed);
  });
  const started = (request: IncomingMessage) => {
    const timer = waiting.get(request.socket);
    if (timer === undefined) return;
    clearTimeout(timer);
    waiting.delete(request.socket);
    request.socket.off("close", closed);
  };
  server.on("request", started);
  server.on("upgrade", started);
}
