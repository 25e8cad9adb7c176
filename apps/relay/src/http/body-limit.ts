import { errorBody } from "@ringback/protocol";
import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import type { RelayEnv } from "../relay-env.js";
import type { RelayRuntime } from "../runtime/relay-runtime.js";
import { RetryLaterError } from "../runtime/retry-later.js";
import { clientAddress } from "./client-address.js";

/** How soon a request refused for the bodies in flight may be sent again. */
const BODIES_RETRY_AFTER_MS = 2000;

/** Refuses a body over `maxBytes` with 413 `payload_too_large`, before it is read whole. */
function limitBody(maxBytes: number) {
  return bodyLimit({
    maxSize: maxBytes,
    onError: (c) => c.json(errorBody("payload_too_large", `The body is over ${maxBytes} bytes.`), 413),
  });
}

/**
 * `limitBody`, and a share of the relay's budget for bodies in flight (`BodyBudget`), taken before a byte is read: its
 * declared length, or `maxBytes` when it declares none, for its device (once authenticated), its client address and
 * the relay. A body that does not fit is never read: 503 `relay_unavailable` with `Retry-After`.
 */
export function boundedBody(runtime: RelayRuntime, maxBytes: number) {
  const limit = limitBody(maxBytes);
  return createMiddleware<RelayEnv>(async (c, next) => {
    const declared = Number(c.req.header("Content-Length"));
    const bytes = Number.isSafeInteger(declared) && declared >= 0 ? Math.min(declared, maxBytes) : maxBytes;
    const release = runtime.bodies.reserve(
      { deviceId: c.get("device")?.id ?? null, address: clientAddress(c, runtime.config.behindProxy) },
      bytes,
    );
    if (release === null) {
      throw new RetryLaterError(
        "relay_unavailable",
        BODIES_RETRY_AFTER_MS,
        "The relay is taking in as much as it holds at once; send this again shortly.",
      );
    }
    try {
      // The limit answers 413 itself: its answer is this middleware's.
      return await limit(c, next);
    } finally {
      release();
    }
  });
}
