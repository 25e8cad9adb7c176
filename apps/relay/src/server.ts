import { once } from "node:events";
import type { Server } from "node:http";
import { createAdaptorServer } from "@hono/node-server";
import { createRelay, type Relay, type RelayOptions } from "./relay.js";

export interface RelayServerOptions extends RelayOptions {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
}

export interface RelayServer {
  readonly relay: Relay;
  /** `http://host:port` with the port actually bound. */
  readonly url: string;
  readonly port: number;
  /**
   * Shuts down gracefully: stops accepting connections, tells every stream to reconnect, closes the links, lets
   * requests in flight finish (up to `SHUTDOWN_GRACE_MS`), then drops what is left. The store stays open.
   */
  close(): Promise<void>;
}

/** How long requests in flight may take to finish at shutdown before their connections are dropped. */
export const SHUTDOWN_GRACE_MS = 5000;
const IDLE_SWEEP_MS = 50;

/** Listens with the relay's app and its WebSocket upgrade; resolves once the port is bound. */
export async function startRelayServer(options: RelayServerOptions): Promise<RelayServer> {
  const relay = createRelay(options);
  const server = createAdaptorServer({ fetch: relay.app.fetch }) as Server;
  server.on("upgrade", relay.handleUpgrade);
  server.listen(options.port, options.host);
  await once(server, "listening");
  relay.startTimers();
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : options.port;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    relay,
    url: `http://${host}:${port}`,
    port,
    async close() {
      const closed = once(server, "close");
      server.close();
      relay.close();
      // A keep-alive connection goes idle once its last response ends: drop those as they appear.
      const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
      const grace = setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS);
      server.closeIdleConnections();
      try {
        await closed;
      } finally {
        clearInterval(sweep);
        clearTimeout(grace);
      }
    },
  };
}
