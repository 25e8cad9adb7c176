import { createMiddleware } from "hono/factory";
import type { Clock } from "../clock.js";
import type { RelayLog } from "../log.js";
import type { RelayEnv } from "../relay-env.js";

/** One line per request: method, path (ids only, no query), status, time, and the device id when known. */
export function requestLog(log: RelayLog, clock: Clock) {
  return createMiddleware<RelayEnv>(async (c, next) => {
    const started = clock.now();
    await next();
    const device = c.get("device");
    const who = device ? ` device=${device.id}` : "";
    log.line(`${c.req.method} ${c.req.path} ${c.res.status} ${clock.now() - started}ms${who}`);
  });
}
