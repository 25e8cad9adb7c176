import { RingbackError } from "@ringback/protocol";
import { Hono } from "hono";
import { requireDevice } from "../http/auth.js";
import { clientAddress } from "../http/client-address.js";
import type { RelayEnv } from "../relay-env.js";
import { RateLimitedError } from "../runtime/code-attempts.js";
import type { RelayRuntime } from "../runtime/relay-runtime.js";
import { retryFrame } from "../runtime/sse-frames.js";
import { sseResponse } from "../runtime/sse-response.js";
import { sweepExpired } from "../runtime/sweeper.js";
import type { StreamSnapshot } from "../store/store.js";

const SEQ_TEXT = /^\d{1,15}$/;
/** How soon a client refused for its address's streams may try again. */
const STREAM_ADDRESS_RETRY_MS = 30_000;

/**
 * `GET /v1/stream`: SSE. With `Last-Event-ID` (header, or `?lastEventId=` for a first connect) it first sends
 * everything after that seq; without, every call still open. Then `synced`, then live entries.
 */
export function streamRoutes(runtime: RelayRuntime): Hono<RelayEnv> {
  const routes = new Hono<RelayEnv>();
  routes.get("/stream", requireDevice(runtime.store, runtime.clock), async (c) => {
    // The header wins: a reconnecting EventSource sends the newest id there and repeats the first URL's query.
    const lastEventId = parseLastEventId(c.req.header("Last-Event-ID") ?? c.req.query("lastEventId"));
    await sweepExpired(runtime);
    const device = c.get("device");
    const address = clientAddress(c, runtime.config.behindProxy);
    // Refused, not made room for: another client's streams behind the same address are not this one's to close.
    if (runtime.hub.streamsFrom(address) >= runtime.config.streamsPerAddressMax) {
      runtime.log.line(
        `stream refused device=${device.id}: ${runtime.config.streamsPerAddressMax} streams from its address`,
      );
      throw new RateLimitedError(
        STREAM_ADDRESS_RETRY_MS,
        "Too many open streams from this address; try again later.",
      );
    }
    const closed = runtime.hub.makeRoomFor(device.id, runtime.config.streamsPerDeviceMax);
    if (closed > 0) runtime.log.line(`stream limit device=${device.id}: closed ${closed} older stream(s)`);
    const closedOfAccount = runtime.hub.makeRoomForAccount(
      device.accountId,
      runtime.config.streamsPerAccountMax,
    );
    if (closedOfAccount > 0) {
      runtime.log.line(`stream limit account=${device.accountId}: closed ${closedOfAccount} older stream(s)`);
    }
    const connection = runtime.hub.open(device, address);
    try {
      connection.write(retryFrame(runtime.config.sseRetryMs));
      await runtime.hub.join(connection, await backlog(runtime, device.accountId, lastEventId));
    } catch (error) {
      connection.close();
      throw error;
    }
    return sseResponse(c, connection);
  });
  return routes;
}

async function backlog(
  runtime: RelayRuntime,
  accountId: string,
  lastEventId: number | null,
): Promise<StreamSnapshot> {
  if (lastEventId !== null) {
    const since = await runtime.store.streamSince(accountId, lastEventId);
    // An id beyond the account's head belongs to another relay or a wiped one: start over from the open calls.
    if (lastEventId <= since.headSeq) return since;
  }
  return runtime.store.pendingCalls(accountId);
}

function parseLastEventId(value: string | undefined): number | null {
  if (value === undefined || value.trim() === "") return null;
  if (!SEQ_TEXT.test(value.trim()))
    throw new RingbackError("invalid_request", "Last-Event-ID must be a seq number.");
  return Number(value.trim());
}
