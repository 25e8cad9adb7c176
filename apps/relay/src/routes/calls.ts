import {
  type CallDelivery,
  CallStatusRequest,
  type CallStatusResult,
  DeliveryReport,
  EventId,
  RELAY_REPLY_BODY_MAX_BYTES,
  RELAY_SMALL_BODY_MAX_BYTES,
  type ReplyAccepted,
  ReplyRequest,
  RingbackError,
} from "@ringback/protocol";
import { Hono } from "hono";
import { requireDevice } from "../http/auth.js";
import { boundedBody } from "../http/body-limit.js";
import { readJson, readParam } from "../http/read-json.js";
import { QUOTA_RETRY_AFTER_MS } from "../relay-config.js";
import type { RelayEnv } from "../relay-env.js";
import { recordDelivery } from "../runtime/call-deliveries.js";
import { settledCall } from "../runtime/push-delivery.js";
import { publish, type RelayRuntime } from "../runtime/relay-runtime.js";
import { sendReply } from "../runtime/reply-delivery.js";
import { RetryLaterError } from "../runtime/retry-later.js";
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
    const device = c.get("device");
    // A call past its time is expired first, so nobody can answer it late.
    await sweepExpired(runtime);
    const now = runtime.clock.now();
    const outcome = await runtime.store.setCallStatus({
      accountId: device.accountId,
      eventId,
      deviceId: device.id,
      status: body.status,
      now,
      answeredExpiresAt: now + runtime.config.callExpiryMs,
    });
    switch (outcome.kind) {
      case "not_found":
        throw new RingbackError("call_not_found");
      case "already_answered":
        throw new RingbackError(
          "call_already_answered",
          outcome.status === "answered" ? undefined : `The call already ended (${outcome.status}).`,
        );
      case "changed":
        publish(runtime, [outcome.entry]);
        // The call's notification closes on the other devices that were pushed it, even where the app is closed.
        runtime.push.kickSettled(settledCall(outcome.entry));
        runtime.log.line(
          `call ${outcome.status} event=${eventId} device=${device.id} seq=${outcome.entry.seq}`,
        );
        break;
    }
    const result: CallStatusResult = {
      eventId,
      status: outcome.status,
      won: outcome.kind !== "already_ended",
    };
    return c.json(result);
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
    const device = c.get("device");
    const enqueue = () => {
      const now = runtime.clock.now();
      return runtime.store.enqueueReply({
        accountId: device.accountId,
        eventId,
        replyId: body.replyId,
        fromDeviceId: device.id,
        sealed: body.sealed,
        now,
        expiresAt: now + runtime.config.replyExpiryMs,
        limits: {
          queuedMax: runtime.config.queuedRepliesPerAccountMax,
          sealedBytesMax: runtime.config.sealedBytesPerAccountMax,
        },
      });
    };
    let outcome = await enqueue();
    if (outcome.kind === "full") {
      // Replies (and calls) past their time are expired first, so a share they still held is free.
      await sweepExpired(runtime);
      outcome = await enqueue();
    }
    if (outcome.kind === "full") {
      runtime.log.line(`reply refused device=${device.id}: the account's quota of queued replies is used up`);
      throw new RetryLaterError(
        "storage_full",
        QUOTA_RETRY_AFTER_MS,
        `This account has ${outcome.usage.queuedReplies} replies queued and ${outcome.usage.sealedBytes} bytes stored on the relay, its most: wait for its computers to take them, or for them to expire.`,
      );
    }
    if (outcome.kind === "not_found") throw new RingbackError("call_not_found");
    if (outcome.kind === "conflict") {
      throw new RingbackError("invalid_request", "This replyId is already used for another call.");
    }
    if (outcome.kind === "created") {
      publish(runtime, outcome.entries);
      const isSent =
        outcome.status === "queued" &&
        sendReply(runtime, outcome.toDeviceId, { replyId: body.replyId, eventId, sealed: body.sealed });
      runtime.log.line(
        `reply ${outcome.status} reply=${body.replyId} event=${eventId} to=${outcome.toDeviceId}${isSent ? " (sent)" : ""}`,
      );
    }
    const accepted: ReplyAccepted = { replyId: body.replyId, eventId, status: outcome.status };
    return c.json(accepted, 202);
  });

  return routes;
}
