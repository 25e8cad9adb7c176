import { LOG_VALUE_MAX_CHARS, logSafe } from "@ringback/protocol";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { Clock } from "../clock.js";
import type { RelayLog } from "../log.js";
import type { RelayEnv } from "../relay-env.js";

/**
 * One line per request: method, path (ids only, no query), status, time, and the device id when known. The path is
 * the one on the wire (percent-encoded, never decoded into line breaks or escapes), escaped and cut to
 * `LOG_VALUE_MAX_CHARS`; a request no route took is logged as such, its path quoted after `unmatched`, so no client
 * can make a line that looks like another request's or the relay's own.
 */
export function requestLog(log: RelayLog, clock: Clock) {
  return createMiddleware<RelayEnv>(async (c, next) => {
    const started = clock.now();
    await next();
    const device = c.get("device");
    const who = device ? ` device=${device.id}` : "";
    const method = logSafe(c.req.method, METHOD_MAX_CHARS);
    const path = loggedPath(c);
    const what = c.get("unmatched") ? `${method} unmatched "${path}"` : `${method} ${path}`;
    log.line(`${what} ${c.res.status} ${clock.now() - started}ms${who}`);
  });
}

/** No real method is longer; a made-up one is cut. */
const METHOD_MAX_CHARS = 16;

/** The request's path as the client sent it, safe for a log line. */
export function loggedPath(c: Context<RelayEnv>): string {
  return logSafe(rawPath(c.req.url) ?? c.req.path, LOG_VALUE_MAX_CHARS);
}

function rawPath(url: string): string | null {
  try {
    return new URL(url).pathname;
  } catch {
    return null;
  }
}
