import { createServer } from "node:net";

/** A port free right now on 127.0.0.1 (for a program that must be told its port before it starts). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== "object" || address === null) throw new Error("no free port on 127.0.0.1");
  return address.port;
}
