import { createMiddleware } from "hono/factory";
import type { Clock } from "../clock.js";
import type { RelayEnv } from "../relay-env.js";
import { authenticate } from "../runtime/authenticate.js";
import type { RelayStore } from "../store/store.js";

/** Requires a live device token and puts the device on the context. */
export function requireDevice(store: RelayStore, clock: Clock) {
  return createMiddleware<RelayEnv>(async (c, next) => {
    c.set("device", await authenticate(store, clock, c.req.header("Authorization")));
    await next();
  });
}
