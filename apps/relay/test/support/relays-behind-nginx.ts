import { join } from "node:path";
import { freePort, makeTemporaryDirectory, type TemporaryDirectory } from "@ringback/test-kit";
import { ChildRelay } from "./child-relay.js";
import { findNginx, NGINX_MISSING_MESSAGE, type NginxServer, startNginx } from "./nginx-server.js";
import { type PostgresSchema, postgresSchema } from "./postgres-schema.js";

/** The nginx listeners: `relay` spreads over both instances; the two others each prefer one instance. */
export const LISTENERS = { relay: "relay", preferA: "prefer_a", preferB: "prefer_b" } as const;

/**
 * Two relay processes (`a`, `b`) on one fresh PostgreSQL schema behind one nginx. The `relay` listener is the
 * README's config (round robin over both); `prefer_a` and `prefer_b` send to one instance and fail over to the
 * other (`backup`), so a test can pin a client to an instance through nginx and still see it fail over.
 */
export interface RelaysBehindNginx extends AsyncDisposable {
  readonly a: ChildRelay;
  readonly b: ChildRelay;
  readonly nginx: NginxServer;
  url(listener: (typeof LISTENERS)[keyof typeof LISTENERS]): string;
}

export async function startRelaysBehindNginx(relayArgs: readonly string[] = []): Promise<RelaysBehindNginx> {
  if (!findNginx()) throw new Error(NGINX_MISSING_MESSAGE);
  const cleanups: (() => PromiseLike<unknown>)[] = [];
  // Last started, first stopped; a failing step does not keep the others from running.
  const stopAll = async () => {
    for (const cleanup of cleanups.reverse()) await Promise.resolve(cleanup()).catch(() => {});
    cleanups.length = 0;
  };
  try {
    const dir: TemporaryDirectory = await makeTemporaryDirectory("ringback-relays-");
    cleanups.push(() => dir[Symbol.asyncDispose]());
    const schema: PostgresSchema = await postgresSchema();
    cleanups.push(() => schema.drop());
    const start = async (name: string) => {
      const relay = await ChildRelay.start({
        dataDir: join(dir.path, name),
        args: ["--database", schema.url, "--open-signup", "--behind-proxy", ...relayArgs],
      });
      cleanups.push(() => relay.stop("SIGKILL"));
      return relay;
    };
    const a = await start("a");
    const b = await start("b");
    // Never two alike (two nginx `listen`s on one port would silently share it): freePort hands out each once.
    const [relayPort, preferAPort, preferBPort] = [await freePort(), await freePort(), await freePort()];
    const nginx = await startNginx({
      listeners: [
        { name: LISTENERS.relay, port: relayPort, upstream: [{ port: a.port }, { port: b.port }] },
        {
          name: LISTENERS.preferA,
          port: preferAPort,
          upstream: [{ port: a.port }, { port: b.port, isBackup: true }],
        },
        {
          name: LISTENERS.preferB,
          port: preferBPort,
          upstream: [{ port: b.port }, { port: a.port, isBackup: true }],
        },
      ],
    });
    cleanups.push(() => nginx.stop());
    return { a, b, nginx, url: (listener) => nginx.url(listener), [Symbol.asyncDispose]: stopAll };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
