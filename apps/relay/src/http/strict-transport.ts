import type { TLSSocket } from "node:tls";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { RelayEnv } from "../relay-env.js";

/**
 * `Strict-Transport-Security` on every HTTPS answer: a browser that once reached the relay over HTTPS goes on using
 * HTTPS for a year, so nobody on the network can bring a device back to plain HTTP (and its token with it). No
 * `includeSubDomains`: the relay's operator may serve other names under the same domain over plain HTTP.
 */
export const STRICT_TRANSPORT_SECURITY = "max-age=31536000";

/** Sends `STRICT_TRANSPORT_SECURITY` on answers to HTTPS requests, never on plain HTTP (browsers ignore it there). */
export function strictTransport(isBehindProxy: boolean) {
  return createMiddleware<RelayEnv>(async (c, next) => {
    if (isHttps(c, isBehindProxy)) c.header("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY);
    await next();
  });
}

/**
 * The request came over HTTPS: to the relay's own TLS (LAN mode, `--tls-cert`), or to the proxy in front of it, which
 * says so in `X-Forwarded-Proto` (read only behind a proxy, and then its last entry, the one the proxy itself set, as
 * with `X-Forwarded-For`).
 */
function isHttps(c: Context<RelayEnv>, isBehindProxy: boolean): boolean {
  if ((c.env?.incoming?.socket as TLSSocket | undefined)?.encrypted === true) return true;
  if (!isBehindProxy) return false;
  const forwarded = c.req.header("X-Forwarded-Proto")?.split(",").at(-1)?.trim().toLowerCase();
  return forwarded === "https";
}
