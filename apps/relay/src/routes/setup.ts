import type { RelayHealth, RelaySetup } from "@ringback/protocol";
import { Hono } from "hono";
import type { RelayEnv } from "../relay-env.js";
import type { RelayRuntime } from "../runtime/relay-runtime.js";

/** `GET /v1/health` and `GET /v1/setup`: no auth. */
export function setupRoutes(runtime: RelayRuntime): Hono<RelayEnv> {
  const routes = new Hono<RelayEnv>();
  routes.get("/health", async (c) => {
    const disk = runtime.disk.reading;
    const health: RelayHealth = {
      ok: true,
      store: runtime.store.kind,
      migrationVersion: await runtime.store.migrationVersion(),
      disk: disk === null ? null : { freeBytes: disk.freeBytes, isLow: disk.isLow },
    };
    return c.json(health);
  });
  routes.get("/setup", async (c) => {
    const { openSignup } = runtime.config;
    const setup: RelaySetup = {
      claimRequired: !openSignup && !(await runtime.store.hasAccounts()),
      openSignup,
    };
    return c.json(setup);
  });
  return routes;
}
