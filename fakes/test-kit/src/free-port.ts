import { createServer } from "node:net";

/** Ports this process has handed out: the kernel may offer a just-closed port again, to two callers in a row. */
const handedOut = new Set<number>();

/**
 * A port free right now on 127.0.0.1, never one handed out before in this process: for a program that must be
 * told its port before it starts (a server the test starts itself listens on port 0 instead).
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(0, "127.0.0.1", resolve);
    });
    const address = server.address();
    await new Promise((resolve) => server.close(resolve));
    if (typeof address !== "object" || address === null) throw new Error("no free port on 127.0.0.1");
    if (handedOut.has(address.port)) continue;
    handedOut.add(address.port);
    return address.port;
  }
}
