import type { Context } from "hono";

/**
 * What a relayed settings request runs with (`app.fetch(request, RELAYED_REQUEST_ENV)`): the local interface
 * answers a device through the relay as it answers the desktop app, except where a route must say less to a device.
 * No HTTP request can carry it: a request on the socket gets the node server's own env.
 */
export const RELAYED_REQUEST_ENV: object = Object.freeze({ relayed: true });

/** True while answering a request a device sent through the relay. */
export function isRelayedRequest(context: Context): boolean {
  return context.env === RELAYED_REQUEST_ENV;
}
