import { type PushPublicKey, PushSubscriptionRequest, RELAY_SMALL_BODY_MAX_BYTES } from "@ringback/protocol";
import { Hono } from "hono";
import { requireDevice } from "../http/auth.js";
import { boundedBody } from "../http/body-limit.js";
import { readJson } from "../http/read-json.js";
import type { RelayEnv } from "../relay-env.js";
import { pushSubscriptionState, registerPushSubscription } from "../runtime/push-subscriptions.js";
import type { RelayRuntime } from "../runtime/relay-runtime.js";

/** `GET /v1/push/public-key` (no auth) and this device's push subscription: `GET`, `PUT`, `DELETE`. */
export function pushRoutes(runtime: RelayRuntime): Hono<RelayEnv> {
  const routes = new Hono<RelayEnv>();
  routes.use("/push/subscription", requireDevice(runtime.store, runtime.clock));

  routes.get("/push/public-key", async (c) => {
    const { publicKey } = await runtime.pushKeys.get();
    const body: PushPublicKey = { publicKey, subject: runtime.config.pushSubject };
    return c.json(body);
  });

  routes.get("/push/subscription", async (c) => {
    const device = c.get("device");
    return c.json(pushSubscriptionState(device.id, await runtime.store.findPushSubscription(device.id)));
  });

  routes.put("/push/subscription", boundedBody(runtime, RELAY_SMALL_BODY_MAX_BYTES), async (c) => {
    runtime.disk.assertRoom();
    const body = await readJson(c, PushSubscriptionRequest);
    return c.json(await registerPushSubscription(runtime, c.get("device"), body));
  });

  routes.delete("/push/subscription", async (c) => {
    const device = c.get("device");
    if (await runtime.store.removePushSubscription(device.id)) {
      runtime.log.line(`push subscription removed device=${device.id}`);
    }
    return c.json(pushSubscriptionState(device.id, null));
  });

  return routes;
}
