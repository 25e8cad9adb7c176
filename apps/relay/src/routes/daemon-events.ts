import { setImmediate as nextTurn } from "node:timers/promises";
import {
  type CallPushedAgain,
  DaemonEventPost,
  DaemonTrackerReportPost,
  EventId,
  type EventPosted,
  RELAY_EVENT_BODY_MAX_BYTES,
  RingbackError,
} from "@ringback/protocol";
import { type Context, Hono } from "hono";
import { requireDevice } from "../http/auth.js";
import { boundedBody } from "../http/body-limit.js";
import { readJson } from "../http/read-json.js";
import { QUOTA_RETRY_AFTER_MS } from "../relay-config.js";
import type { RelayEnv } from "../relay-env.js";
import { RateLimitedError } from "../runtime/code-attempts.js";
import { publish, type RelayRuntime } from "../runtime/relay-runtime.js";
import { RetryLaterError } from "../runtime/retry-later.js";
import type { DeviceRecord } from "../store/store.js";

/** `POST /v1/daemon/events` and `POST /v1/daemon/tracker-reports`: a computer's sealed report, stored and rung. */
export function daemonEventRoutes(runtime: RelayRuntime): Hono<RelayEnv> {
  const routes = new Hono<RelayEnv>();
  // Who may post, and whether anything more may be stored, are settled before a byte of the body is read.
  // Only these paths: the other `/daemon/*` routes (the fleet state) have their own bounds.
  for (const path of ["/daemon/events/*", "/daemon/tracker-reports"]) {
    routes.use(
      path,
      requireDevice(runtime.store, runtime.clock),
      async (c, next) => {
        if (c.get("device").kind !== "computer") throw new RingbackError("computer_only");
        runtime.disk.assertRoom();
        await assertEventAllowance(runtime, c.get("device"));
        await next();
      },
      boundedBody(runtime, RELAY_EVENT_BODY_MAX_BYTES),
    );
  }

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

  // The first rung of the computer's escalation ladder: its call, still ringing, is pushed again now at high urgency.
  // A quiet call still pending is pushed now for the first time: the computer's quiet summary rings it.
  routes.post("/daemon/events/:eventId/push", async (c) => {
    const eventId = EventId.safeParse(c.req.param("eventId"));
    if (!eventId.success) throw new RingbackError("call_not_found");
    const device = c.get("device");
    const devices = await runtime.store.pushCallAgain({
      accountId: device.accountId,
      eventId: eventId.data,
      fromDeviceId: device.id,
      now: runtime.clock.now(),
    });
    if (devices === 0) {
      throw new RingbackError(
        "call_not_found",
        "No device is being pushed this call: it is not pending, it is another computer's, or no device takes pushes.",
      );
    }
    runtime.push.kick();
    runtime.log.line(`push again event=${eventId.data} devices=${devices}`);
    return c.json({ eventId: eventId.data, devices } satisfies CallPushedAgain, 200);
  });

  routes.post("/daemon/tracker-reports", async (c) => {
    const body = await readJson(c, DaemonTrackerReportPost);
    return storeEvent(runtime, c, body);
  });

  return routes;
}

const eventsKey = (deviceId: string) => `events:${deviceId}`;

/** Reports one computer stored in the window: at the limit, the daemon is told to wait (429 with `Retry-After`). */
async function assertEventAllowance(runtime: RelayRuntime, device: DeviceRecord): Promise<void> {
  const now = runtime.clock.now();
  const state = await runtime.store.rateLimitState(eventsKey(device.id), now);
  if (state.count >= runtime.config.eventsPerDeviceMax) {
    runtime.log.line(`event refused device=${device.id}: ${state.count} reports in the window`);
    throw new RateLimitedError(state.resetAt - now, "Too many reports from this computer; try again later.");
  }
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
    ring: body.ring ?? "ring",
    receivedAt: now,
    expiresAt: now + runtime.config.callExpiryMs,
    limits: {
      openCallsMax: runtime.config.openCallsPerAccountMax,
      sealedBytesMax: runtime.config.sealedBytesPerAccountMax,
    },
    countsIn: { key: eventsKey(device.id), windowMs: runtime.config.eventWindowMs },
  });
  if (outcome.kind === "duplicate_task") throw new RingbackError("duplicate_task");
  if (outcome.kind === "full") {
    const { usage } = outcome;
    runtime.log.line(`event refused device=${device.id}: the account's quota of open calls is used up`);
    throw new RetryLaterError(
      "storage_full",
      QUOTA_RETRY_AFTER_MS,
      `This account holds ${usage.openCalls} calls and ${usage.queuedReplies} queued replies (${usage.sealedBytes} bytes) on the relay, its most: answer or end some, or wait for them to expire.`,
    );
  }
  if (outcome.kind === "repeat") {
    const posted: EventPosted = { eventId: body.eventId, seq: outcome.seq };
    return c.json(posted, 200);
  }
  publish(runtime, [outcome.entry]);
  // After the streams have it, and without waiting: a slow push service holds up neither them nor the daemon.
  runtime.push.kick();
  // The answer waits one turn of the event loop, never for a push service: the pushes just claimed are encrypted and
  // on their sockets first, since the phone ringing is what a person waits for, and the 201 only lets the daemon
  // drop its copy.
  await nextTurn();
  runtime.log.line(
    `event stored event=${body.eventId} source=${body.source} seq=${outcome.entry.seq} ring=${body.ring ?? "ring"}`,
  );
  const posted: EventPosted = { eventId: body.eventId, seq: outcome.entry.seq };
  return c.json(posted, 201);
}
