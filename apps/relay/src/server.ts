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
  /** Closes streams, links and the listener; the store stays open. */
  close(): Promise<void>;
}

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
      relay.close();
      const closed = once(server, "close");
      server.close();
      server.closeAllConnections();
      await closed;
    },
  };
}
