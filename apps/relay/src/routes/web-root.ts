import { serveStatic } from "@hono/node-server/serve-static";
import { Hono } from "hono";
import type { RelayEnv } from "../relay-env.js";

const API_PREFIX = "/v1/";

/** Static files (the web app) at `/`; a path with no file gets index.html, so the app's own routes load. */
export function webRootRoutes(webRoot: string): Hono<RelayEnv> {
  const routes = new Hono<RelayEnv>();
  const files = serveStatic<RelayEnv>({ root: webRoot });
  const appShell = serveStatic<RelayEnv>({ root: webRoot, path: "index.html" });
  routes.on(["GET", "HEAD"], "*", async (c, next) => {
    if (c.req.path.startsWith(API_PREFIX)) return next();
    const file = await files(c, async () => {});
    return file ?? appShell(c, next);
  });
  return routes;
}
