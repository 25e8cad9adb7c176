import {
  DaemonEventPost,
  DaemonTrackerReportPost,
  type EventPosted,
  RELAY_EVENT_BODY_MAX_BYTES,
  RingbackError,
} from "@ringback/protocol";
import { type Context, Hono } from "hono";
import { requireDevice } from "../http/auth.js";
import { limitBody } from "../http/body-limit.js";
import { readJson } from "../http/read-json.js";
import type { RelayEnv } from "../relay-env.js";
import { publish, type RelayRuntime } from "../runtime/relay-runtime.js";

/** `POST /v1/daemon/events` and `POST /v1/daemon/tracker-reports`: a computer's sealed report, stored and rung. */
export function daemonEventRoutes(runtime: RelayRuntime): Hono<RelayEnv> {
  const routes = new Hono<RelayEnv>();
  routes.use("/daemon/*", requireDevice(runtime.store, runtime.clock), limitBody(RELAY_EVENT_BODY_MAX_BYTES));

  routes.post("/daemon/events", async (c) => {
    const body = await readJson(c, DaemonEventPost);
    // A tracker task must carry its task id, so that it rings once however many computers see it.
    if (body.source === "tracker") {
      throw new RingbackError(
        "invalid_request",
        "Tracker reports go to /v1/daemon/tracker-reports with a taskId.",
      );
    }
    return storeEvent(runtime, c, { ...body, taskId: null });
  });

  routes.post("/daemon/tracker-reports", async (c) => {
    const body = await readJson(c, DaemonTrackerReportPost);
    return storeEvent(runtime, c, body);
  });

  return routes;
}

async function storeEvent(
  runtime: RelayRuntime,
  c: Context<RelayEnv>,
  body: DaemonEventPost & { taskId: string | null },
): Promise<Response> {
  const device = c.get("device");
  const now = runtime.clock.now();
  const outcome = await runtime.store.appendEvent({
    accountId: device.accountId,
    eventId: body.eventId,
    source: body.source,
    occurredAt: body.occurredAt,
    taskId: body.taskId,
    fromDeviceId: device.id,
    sealed: body.sealed,
    receivedAt: now,
    expiresAt: now + runtime.config.callExpiryMs,
  });
  if (outcome.kind === "duplicate_task") throw new RingbackError("duplicate_task");
  if (outcome.kind === "repeat") {
    const posted: EventPosted = { eventId: body.eventId, seq: outcome.seq };
    return c.json(posted, 200);
  }
  publish(runtime, [outcome.entry]);
  // After the streams have it, and without waiting: a slow push service holds up neither them nor the daemon.
  runtime.push.kick();
  runtime.log.line(`event stored event=${body.eventId} source=${body.source} seq=${outcome.entry.seq}`);
  const posted: EventPosted = { eventId: body.eventId, seq: outcome.entry.seq };
  return c.json(posted, 201);
}
