import { once } from "node:events";
import type { Server } from "node:http";
import { createServer as createHttpsServer } from "node:https";
import { createAdaptorServer } from "@hono/node-server";
import { ConnectionsPerAddress } from "./http/connections-per-address.js";
import { cutSilentConnections } from "./http/silent-connections.js";
import { createRelay, type Relay, type RelayOptions } from "./relay.js";
import type { TlsFiles } from "./tls-files.js";

export interface RelayServerOptions extends RelayOptions {
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** Terminate TLS here (`--tls-cert`, `--tls-key`); plain HTTP without. */
  readonly tls?: TlsFiles | null;
  /** Bounds on a client that sends its request slowly (slowloris); the defaults suit production. */
  readonly slowClientLimits?: SlowClientLimits;
}

/**
 * How long a client may take to send its headers (from connecting, or from the TLS handshake's end: a connection
 * that sends nothing is cut too) and its whole request, and how often that is checked: a client that dribbles its
 * headers a byte at a time is cut off instead of holding a socket forever. An SSE stream is a request that was
 * received at once; its long answer is not bounded by these.
 */
export interface SlowClientLimits {
  readonly headersMs: number;
  readonly requestMs: number;
  readonly checkEveryMs: number;
}

const SLOW_CLIENT_LIMITS: SlowClientLimits = { headersMs: 20_000, requestMs: 60_000, checkEveryMs: 5_000 };

/** The port cannot be bound: the message says which and what to do. */
export class RelayListenError extends Error {
  override readonly name = "RelayListenError";
}

export interface RelayServer {
  readonly relay: Relay;
  /** `http(s)://host:port` with the port actually bound. */
  readonly url: string;
  readonly port: number;
  /**
   * Shuts down gracefully: stops accepting connections, tells every stream to reconnect, closes the links, lets
   * requests in flight finish (up to `SHUTDOWN_GRACE_MS`), then drops what is left. The store stays open.
   */
  close(): Promise<void>;
}

/** How long requests in flight may take to finish at shutdown before their connections are dropped. */
const SHUTDOWN_GRACE_MS = 5000;
const IDLE_SWEEP_MS = 50;

/** Listens with the relay's app and its WebSocket upgrade; resolves once the port is bound. */
export async function startRelayServer(options: RelayServerOptions): Promise<RelayServer> {
  const relay = createRelay(options);
  const limits = options.slowClientLimits ?? SLOW_CLIENT_LIMITS;
  const serverOptions = {
    headersTimeout: limits.headersMs,
    requestTimeout: limits.requestMs,
    connectionsCheckingInterval: limits.checkEveryMs,
  };
  const server = (
    options.tls
      ? createAdaptorServer({
          fetch: relay.app.fetch,
          createServer: createHttpsServer,
          serverOptions: {
            ...serverOptions,
            cert: options.tls.cert,
            key: options.tls.key,
            handshakeTimeout: limits.headersMs,
          },
        })
      : createAdaptorServer({ fetch: relay.app.fetch, serverOptions })
  ) as Server;
  server.on("upgrade", relay.handleUpgrade);
  cutSilentConnections(server, limits.headersMs, Boolean(options.tls));
  const { config } = relay.runtime;
  // Behind a proxy every socket is the proxy's: the proxy bounds its clients' connections (and their headers' time).
  if (!config.behindProxy) {
    const connections = new ConnectionsPerAddress(
      config.streamsPerAddressMax + config.connectionsBesideStreamsPerAddress,
      relay.runtime.log,
    );
    server.on("connection", connections.admit);
  }
  server.listen(options.port, options.host);
  try {
    await once(server, "listening");
  } catch (error) {
    throw listenError(error, options.host, options.port);
  }
  relay.startTimers();
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : options.port;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    relay,
    url: `${options.tls ? "https" : "http"}://${host}:${port}`,
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

function listenError(error: unknown, host: string, port: number): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === "EADDRINUSE")
    return new RelayListenError(
      `port ${port} on ${host} is in use (another relay?): stop it, or choose another with --port`,
    );
  if (code === "EACCES")
    return new RelayListenError(
      `port ${port} on ${host} needs privileges: use a port above 1023 (Caddy can serve 443 in front)`,
    );
  if (code === "EADDRNOTAVAIL")
    return new RelayListenError(`${host} is not an address of this machine: choose another with --host`);
  return error instanceof Error ? error : new Error(String(error));
}
