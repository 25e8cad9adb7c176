import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A test server listening on 127.0.0.1 at a free port: its origin, and a close that ends open streams too. */
export async function listenOnLoopback(
  server: Server,
): Promise<{ origin: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { origin: `http://127.0.0.1:${port}`, close };
}
