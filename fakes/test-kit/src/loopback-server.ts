import type { Server } from "node:http";

/** A test's server listening on 127.0.0.1 at a free port. */
export interface LoopbackServer extends AsyncDisposable {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  readonly port: number;
  /** Closes it, ending open connections (streams, held requests) too; what disposing does. */
  close(): Promise<void>;
}

/** Listens `server` on 127.0.0.1 at a port the kernel picks (port 0), for a test that starts it itself. */
export async function listenOnLoopback(server: Server): Promise<LoopbackServer> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  if (typeof address !== "object" || address === null) throw new Error("the server has no port");
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return {
    origin: `http://127.0.0.1:${address.port}`,
    port: address.port,
    close,
    [Symbol.asyncDispose]: close,
  };
}
