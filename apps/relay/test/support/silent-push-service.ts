import { createServer, type Server, type Socket } from "node:net";

/**
 * A push service that accepts every TCP connection and never says a word (not even a TLS handshake): `open` and
 * `mostOpen` count its connections now and at most, `connections` all it was ever given.
 */
export async function silentPushService(): Promise<
  AsyncDisposable & { origin: string; open: number; mostOpen: number; connections: number }
> {
  const sockets = new Set<Socket>();
  const service = { origin: "", open: 0, mostOpen: 0, connections: 0 };
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    service.connections++;
    service.open = sockets.size;
    service.mostOpen = Math.max(service.mostOpen, sockets.size);
    socket.on("error", () => {});
    socket.on("close", () => {
      sockets.delete(socket);
      service.open = sockets.size;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  service.origin = `https://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
  return Object.assign(service, {
    async [Symbol.asyncDispose]() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  });
}
