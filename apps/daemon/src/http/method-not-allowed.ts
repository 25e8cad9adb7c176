import { RingbackError } from "@ringback/protocol";
import type { Handler } from "hono";

/** Registered after a path's handlers: any other method gets 405 with an `Allow` header. */
export function methodNotAllowed(allowed: readonly string[]): Handler {
  return (context) => {
    context.header("Allow", allowed.join(", "));
    throw new RingbackError("method_not_allowed");
  };
}
