import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { getRequestListener } from "@hono/node-server";
import type { Hono } from "hono";
import { StartError } from "./runtime/start-error.js";

/** The daemon listens on the IPv4 loopback only: nothing off this computer can reach it. */
const LISTEN_HOSTNAME = "127.0.0.1";

export interface ListeningServer {
  port: number;
  close(): Promise<void>;
}

/**
 * How long a client may take to send its headers and its whole request, and how often that is checked: a local
 * process that dribbles a request (slowloris) is cut off instead of holding a socket. The hook sends at once.
 */
export interface SlowClientLimits {
  readonly headersMs: number;
  readonly requestMs: number;
  readonly checkEveryMs: number;
}

const SLOW_CLIENT_LIMITS: SlowClientLimits = { headersMs: 10_000, requestMs: 60_000, checkEveryMs: 2_000 };

/** Listens on 127.0.0.1:`port` (0: any free port) and resolves with the port once listening. */
export async function listen(
  app: Hono,
  port: number,
  limits: SlowClientLimits = SLOW_CLIENT_LIMITS,
): Promise<ListeningServer> {
  const listener = getRequestListener(app.fetch, { hostname: LISTEN_HOSTNAME });
  const serverOptions = {
    headersTimeout: limits.headersMs,
    requestTimeout: limits.requestMs,
    connectionsCheckingInterval: limits.checkEveryMs,
  };
  const server = createServer(serverOptions, (incoming, outgoing) => {
    // A host name is case-insensitive: `Host: LOCALHOST:<port>` is the daemon's own (README: Guards). The node
    // adapter answers a bare 400 to one not in lower case before the guards run, so they get it in lower case.
    if (incoming.headers.host !== undefined) incoming.headers.host = incoming.headers.host.toLowerCase();
    void listener(incoming, outgoing);
  });
  await new Promise<void>((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "EADDRINUSE"
          ? new StartError(
              `port ${port} on ${LISTEN_HOSTNAME} is in use (is another ringback daemon running?)`,
            )
          : error,
      );
    };
    server.once("error", onError);
    server.listen(port, LISTEN_HOSTNAME, () => {
      server.off("error", onError);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      }),
  };
}
