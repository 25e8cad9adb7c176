import { Hono } from "hono";
import { cors } from "hono/cors";
import { renderError, renderNotFound } from "./http/errors.js";
import { requestLog } from "./http/request-log.js";
import { requestsPerAddress } from "./http/requests-per-address.js";
import { strictTransport } from "./http/strict-transport.js";
import type { RelayEnv } from "./relay-env.js";
import { accountRoutes } from "./routes/accounts.js";
import { callRoutes } from "./routes/calls.js";
import { daemonEventRoutes } from "./routes/daemon-events.js";
import { deviceRoutes } from "./routes/devices.js";
import { fleetRoutes } from "./routes/fleet.js";
import { keyRotationRoutes } from "./routes/key-rotations.js";
import { pairingRoutes } from "./routes/pairing.js";
import { pushRoutes } from "./routes/push.js";
import { setupRoutes } from "./routes/setup.js";
import { streamRoutes } from "./routes/stream.js";
import { webRootRoutes } from "./routes/web-root.js";
import type { RelayRuntime } from "./runtime/relay-runtime.js";

/** Browsers may cache a preflight answer this long. */
const CORS_MAX_AGE_SECONDS = 600;

/** The relay's HTTP app: `/v1/*` is the API; with a web root, every other GET is the web app. Never listens. */
export function createRelayApp(runtime: RelayRuntime): Hono<RelayEnv> {
  const app = new Hono<RelayEnv>();
  app.use("*", requestLog(runtime.log, runtime.clock));
  const { config } = runtime;
  // First, so a refusal (429, an error) over HTTPS carries it too.
  app.use("*", strictTransport(config.behindProxy));
  // Directly connected clients are bounded per address at the socket (server.ts); behind a proxy, here.
  if (config.behindProxy) {
    app.use("*", requestsPerAddress(config.streamsPerAddressMax + config.connectionsBesideStreamsPerAddress));
  }
  // No answer is ever to be read as another type than it says (a JSON error as HTML, a file as a script).
  app.use("*", async (c, next) => {
    c.header("X-Content-Type-Options", "nosniff");
    await next();
  });
  // Devices authenticate with an explicit bearer token, never a cookie, so any origin may call the API: a web app
  // served from elsewhere (a dev server, a third-party client) works the same as one served by --web-root.
  app.use(
    "/v1/*",
    cors({
      origin: "*",
      allowHeaders: ["Authorization", "Content-Type", "Last-Event-ID"],
      exposeHeaders: ["Retry-After"],
      maxAge: CORS_MAX_AGE_SECONDS,
    }),
  );
  const api = new Hono<RelayEnv>()
    .route("/", setupRoutes(runtime))
    .route("/", accountRoutes(runtime))
    .route("/", pairingRoutes(runtime))
    .route("/", deviceRoutes(runtime))
    .route("/", keyRotationRoutes(runtime))
    .route("/", daemonEventRoutes(runtime))
    .route("/", fleetRoutes(runtime))
    .route("/", callRoutes(runtime))
    .route("/", streamRoutes(runtime))
    .route("/", pushRoutes(runtime));
  app.route("/v1", api);
  if (runtime.config.webRoot !== null)
    app.route("/", webRootRoutes(runtime.config.webRoot, runtime.config.webConnectOrigins));
  app.onError(renderError(runtime.log));
  app.notFound(renderNotFound);
  return app;
}
