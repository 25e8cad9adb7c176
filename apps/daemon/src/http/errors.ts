import { errorBody, isRingbackError, type RingbackError } from "@ringback/protocol";
import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Logger } from "../runtime/logger.js";

/** The one place that turns errors into the `{error:{code,message}}` envelope. */
export function renderError(log: Logger): ErrorHandler {
  return (error, context) => {
    if (isRingbackError(error)) return ringbackErrorResponse(context, error, log);
    // Only the message: a stack or a request body could carry a secret into the log.
    log(`internal error on ${context.req.method} ${context.req.path}: ${error.message}`);
    return context.json(errorBody("internal_error"), 500);
  };
}

export const renderNotFound: NotFoundHandler = (context) => context.json(errorBody("not_found"), 404);

function ringbackErrorResponse(context: Context, error: RingbackError, log: Logger): Response {
  if (error.status === 401) context.header("WWW-Authenticate", "Bearer");
  if (error.status === 401 || error.status === 403 || error.status === 413 || error.status === 415) {
    // Refused before the route ran: worth one line (a web page or another user probing the port).
    log(`refused ${context.req.method} ${context.req.path}: ${error.status} ${error.code}`);
  }
  return context.json(error.toBody(), error.status as ContentfulStatusCode);
}
