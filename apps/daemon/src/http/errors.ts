import {
  errorBody,
  isRingbackError,
  LOG_VALUE_MAX_CHARS,
  logSafe,
  type RingbackError,
} from "@ringback/protocol";
import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Logger } from "../runtime/logger.js";
import { TestLimitError } from "../runtime/model/model-test/tests-per-minute.js";

/** The one place that turns errors into the `{error:{code,message}}` envelope. */
export function renderError(log: Logger): ErrorHandler {
  return (error, context) => {
    if (isRingbackError(error)) return ringbackErrorResponse(context, error, log);
    // Only the message: a stack or a request body could carry a secret into the log.
    log(`internal error on ${requestLine(context)}: ${logSafe(error.message, LOG_VALUE_MAX_CHARS)}`);
    return context.json(errorBody("internal_error"), 500);
  };
}

export const renderNotFound: NotFoundHandler = (context) => context.json(errorBody("not_found"), 404);

function ringbackErrorResponse(context: Context, error: RingbackError, log: Logger): Response {
  if (error.status === 401) context.header("WWW-Authenticate", "Bearer");
  if (error instanceof TestLimitError) context.header("Retry-After", String(error.retryAfterSeconds));
  if (error.status === 401 || error.status === 403 || error.status === 413 || error.status === 415) {
    // Refused before the route ran: worth one line (a web page or another user probing the port).
    log(`refused ${requestLine(context)}: ${error.status} ${error.code}`);
  }
  return context.json(error.toBody(), error.status as ContentfulStatusCode);
}

/**
 * Method and path as a log shows them: the path as sent (percent-encoding kept, never decoded into a line break),
 * escaped and cut, since any web page the user visits can choose it.
 */
function requestLine(context: Context): string {
  let path: string;
  try {
    path = new URL(context.req.url).pathname;
  } catch {
    path = context.req.path;
  }
  return `${logSafe(context.req.method, METHOD_MAX_CHARS)} ${logSafe(path, LOG_VALUE_MAX_CHARS)}`;
}

/** No real method is longer; a made-up one is cut. */
const METHOD_MAX_CHARS = 16;
