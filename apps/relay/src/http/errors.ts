import { errorBody, isRingbackError } from "@ringback/protocol";
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { RelayLog } from "../log.js";
import type { RelayEnv } from "../relay-env.js";
import { RetryLaterError } from "../runtime/retry-later.js";
import { loggedPath } from "./request-log.js";
import { isStoreUnavailable } from "./store-unavailable.js";

/** How soon a client may try again while the database is out of reach. */
const STORE_RETRY_AFTER_SECONDS = 2;

/** The one place an error becomes the `{error:{code,message}}` envelope. */
export function renderError(log: RelayLog) {
  return (error: Error, c: Context<RelayEnv>): Response => {
    if (error instanceof RetryLaterError) c.header("Retry-After", String(error.retryAfterSeconds));
    if (isRingbackError(error)) return c.json(error.toBody(), error.status as ContentfulStatusCode);
    if (error instanceof HTTPException && error.status === 413) {
      return c.json(errorBody("payload_too_large"), 413);
    }
    if (isStoreUnavailable(error)) {
      log.line(
        `database unavailable on ${c.req.method} ${loggedPath(c)}: ${String((error as { code?: unknown }).code)}`,
      );
      c.header("Retry-After", String(STORE_RETRY_AFTER_SECONDS));
      return c.json(errorBody("relay_unavailable"), 503);
    }
    // Only the error's class reaches the log: a message may quote input.
    log.line(`internal error on ${c.req.method} ${loggedPath(c)}: ${error.name}`);
    return c.json(errorBody("internal_error"), 500);
  };
}

export function renderNotFound(c: Context<RelayEnv>): Response {
  c.set("unmatched", true);
  return c.json(errorBody("not_found"), 404);
}
