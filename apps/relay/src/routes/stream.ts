import { RingbackError } from "@ringback/protocol";
import { Hono } from "hono";
import { requireDevice } from "../http/auth.js";
import { clientAddress } from "../http/client-address.js";
import type { RelayEnv } from "../relay-env.js";
import { RateLimitedError } from "../runtime/code-attempts.js";
import { relayedFleetState } from "../runtime/fleet-states.js";
import type { RelayRuntime } from "../runtime/relay-runtime.js";
import { retryFrame } from "../runtime/sse-frames.js";
import { sseResponse } from "../runtime/sse-response.js";
import { STREAM_PAGE_ENTRIES, STREAM_PAGE_MAX_BYTES, type StreamBacklog } from "../runtime/stream-hub.js";
import { sweepExpired } from "../runtime/sweeper.js";

const SEQ_TEXT = /^\d{1,15}$/;
/** How soon a client refused for its address's streams may try again. */
const STREAM_ADDRESS_RETRY_MS = 30_000;

/**
 * `GET /v1/stream`: SSE. With `Last-Event-ID` (header, or `?lastEventId=` for a first connect) it first sends
 * everything after that seq; without, every call still open. Then `synced`, every computer's fleet state, then live
 * entries and fleet states.
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
    let backlog: StreamBacklog;
    try {
      connection.write(retryFrame(runtime.config.sseRetryMs));
      // The first page is read before the answer starts, so a store that cannot be read is still a 503.
      backlog = await openBacklog(runtime, device.accountId, lastEventId);
    } catch (error) {
      connection.close();
      throw error;
    }
    const response = sseResponse(c, connection);
    runtime.hub.join(connection, backlog).catch((error: unknown) => {
      // The answer has started: the stream ends, and its client resumes by Last-Event-ID.
      runtime.log.line(
        `stream backlog failed device=${device.id}: ${error instanceof Error ? error.name : "unknown error"}`,
      );
      connection.close();
    });
    return response;
  });
  return routes;
}

/** The stream's backlog: after the resume point, or the open calls; read a page (bounded in bytes) at a time. */
async function openBacklog(
  runtime: RelayRuntime,
  accountId: string,
  lastEventId: number | null,
): Promise<StreamBacklog> {
  const { store } = runtime;
  const streamPage = (afterSeq: number) =>
    store.streamPage(accountId, afterSeq, STREAM_PAGE_ENTRIES, STREAM_PAGE_MAX_BYTES);
  const openCallsPage = (afterSeq: number) =>
    store.pendingCallsPage(accountId, afterSeq, STREAM_PAGE_ENTRIES, STREAM_PAGE_MAX_BYTES);
  const fleet = async () => (await store.fleetStates(accountId)).map(relayedFleetState);
  if (lastEventId !== null) {
    const first = await streamPage(lastEventId);
    // An id beyond the account's head belongs to another relay or a wiped one: start over from the open calls.
    if (lastEventId <= first.headSeq) return { first, next: streamPage, fleet };
  }
  return { first: await openCallsPage(0), next: openCallsPage, fleet };
}

function parseLastEventId(value: string | undefined): number | null {
  if (value === undefined || value.trim() === "") return null;
  if (!SEQ_TEXT.test(value.trim()))
    throw new RingbackError("invalid_request", "Last-Event-ID must be a seq number.");
  return Number(value.trim());
}
