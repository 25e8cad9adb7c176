import {
  type CallDelivery,
  CallStatusRequest,
  DeliveryReport,
  EventId,
  RELAY_REPLY_BODY_MAX_BYTES,
  RELAY_SMALL_BODY_MAX_BYTES,
  ReplyRequest,
  RingbackError,
} from "@ringback/protocol";
import { Hono } from "hono";
import { requireDevice } from "../http/auth.js";
import { boundedBody } from "../http/body-limit.js";
import { readJson, readParam } from "../http/read-json.js";
import type { RelayEnv } from "../relay-env.js";
import { recordDelivery } from "../runtime/call-deliveries.js";
import { changeCallStatus } from "../runtime/call-status.js";
import { queueReply } from "../runtime/queue-reply.js";
import type { RelayRuntime } from "../runtime/relay-runtime.js";
import { sweepExpired } from "../runtime/sweeper.js";

/** `GET /v1/calls/<eventId>`, the status write-back, delivery outcomes, and replies. */
export function callRoutes(runtime: RelayRuntime): Hono<RelayEnv> {
  const routes = new Hono<RelayEnv>();
  routes.use("/calls/*", requireDevice(runtime.store, runtime.clock));

  routes.get("/calls/:eventId", async (c) => {
    const eventId = readParam(c.req.param("eventId"), EventId, "event id");
    await sweepExpired(runtime);
    const call = await runtime.store.getCall(c.get("device").accountId, eventId);
    if (!call) throw new RingbackError("call_not_found");
    return c.json(call);
  });

  routes.post("/calls/:eventId/status", boundedBody(runtime, RELAY_SMALL_BODY_MAX_BYTES), async (c) => {
    const eventId = readParam(c.req.param("eventId"), EventId, "event id");
    const body = await readJson(c, CallStatusRequest);
    return c.json(await changeCallStatus(runtime, c.get("device"), eventId, body.status));
  });

  routes.post("/calls/:eventId/deliveries", boundedBody(runtime, RELAY_SMALL_BODY_MAX_BYTES), async (c) => {
    const eventId = readParam(c.req.param("eventId"), EventId, "event id");
    const body = await readJson(c, DeliveryReport);
    const device = c.get("device");
    const outcome = await recordDelivery(runtime, {
      accountId: device.accountId,
      eventId,
      deviceId: device.id,
      outcome: body.outcome,
    });
    if (outcome.kind === "not_found") throw new RingbackError("call_not_found");
    const delivery: CallDelivery = outcome.kind === "created" ? outcome.entry.delivery : outcome.delivery;
    return c.json(delivery);
  });

  routes.post("/calls/:eventId/replies", boundedBody(runtime, RELAY_REPLY_BODY_MAX_BYTES), async (c) => {
    const eventId = readParam(c.req.param("eventId"), EventId, "event id");
    runtime.disk.assertRoom();
    const body = await readJson(c, ReplyRequest);
    return c.json(await queueReply(runtime, c.get("device"), eventId, body), 202);
  });

  return routes;
}
