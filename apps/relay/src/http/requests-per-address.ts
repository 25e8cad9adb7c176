import { createMiddleware } from "hono/factory";
import type { RelayEnv } from "../relay-env.js";
import { RateLimitedError } from "../runtime/code-attempts.js";
import { clientAddress } from "./client-address.js";

/** How soon a client refused for its address's requests in flight may try again. */
const REQUESTS_RETRY_MS = 5_000;

/**
 * Behind a proxy (`--behind-proxy`) every socket is the proxy's, so the relay cannot bound a client's connections at
 * the socket: it bounds the requests in flight per client address (the proxy's `X-Forwarded-For` entry, IPv6 per
 * /64) instead, an SSE stream counting until it ends. Beyond `max` a request is 429 `rate_limited` with
 * `Retry-After`; the proxy itself holds (and times out) connections whose headers never arrive.
 */
export function requestsPerAddress(max: number) {
  const inFlight = new Map<string, number>();
  const release = (address: string) => {
    const left = (inFlight.get(address) ?? 1) - 1;
    if (left > 0) inFlight.set(address, left);
    else inFlight.delete(address);
  };
  return createMiddleware<RelayEnv>(async (c, next) => {
    const address = clientAddress(c, true);
    const count = inFlight.get(address) ?? 0;
    if (count >= max) {
      throw new RateLimitedError(
        REQUESTS_RETRY_MS,
        "Too many requests at once from this address; try again later.",
      );
    }
    inFlight.set(address, count + 1);
    const outgoing = c.env?.outgoing;
    // Under node a request ends when its response does (an SSE stream's long after this handler returned).
    if (outgoing) outgoing.once("close", () => release(address));
    try {
      await next();
    } finally {
      if (!outgoing) release(address);
    }
  });
}
