import { PushPublicKey } from "@ringback/protocol";
import { eventually, startTestPushService, type TestSubscription } from "@ringback/test-kit";
import { describe, expect, it } from "vitest";
import { PUSH_SENDS_PER_ACCOUNT_MAX, PUSH_TIMEOUTS_MAX } from "../src/runtime/push-delivery.js";
import { eventBody } from "./support/in-process-relay.js";
import { silentPushService } from "./support/silent-push-service.js";
import { type SocketRelay, socketRelay } from "./support/socket-relay.js";

const HOUR_MS = 60 * 60 * 1000;

/** A browser-side subscription (real keys) at `origin`. */
async function subscriptionAt(origin: string): Promise<TestSubscription> {
  await using keysFrom = await startTestPushService();
  const subscription = keysFrom.subscribe();
  return { ...subscription, endpoint: `${origin}/push/${subscription.id}` };
}

async function subscribe(relay: SocketRelay, token: string, subscription: TestSubscription) {
  const answer = await relay.request("PUT", "/v1/push/subscription", {
    token,
    body: { endpoint: subscription.endpoint, keys: subscription.keys, expirationTime: null },
  });
  expect(answer.status).toBe(200);
}

async function post(relay: SocketRelay, token: string, eventId: string) {
  expect((await relay.request("POST", "/v1/daemon/events", { token, body: eventBody(eventId) })).status).toBe(
    201,
  );
}

describe("Web Push is shared fairly between accounts", () => {
  it("rings another account's closed app at once while one account's endpoints accept and never answer", async () => {
    await using silent = await silentPushService();
    await using pushService = await startTestPushService();
    await using relay = await socketRelay(
      {
        pushPollMs: HOUR_MS,
        pushTrustedOrigins: [silent.origin, pushService.origin],
        pairingsPerAccountMax: 100,
      },
      { pushAgent: pushService.agent },
    );
    // Account A: as many devices as an account may have, each subscribed at an endpoint that never answers.
    const hog = await relay.signUp("computer");
    for (let index = 0; index < 19; index++) {
      const device = await relay.pair(hog.deviceToken, "browser");
      await subscribe(relay, device.deviceToken, await subscriptionAt(silent.origin));
    }
    // Account B: a phone whose app is closed, at a push service that answers.
    const { publicKey } = PushPublicKey.parse((await relay.request("GET", "/v1/push/public-key")).body);
    const owner = await relay.signUp("computer");
    const phone = await relay.pair(owner.deviceToken, "phone");
    const phoneSubscription = pushService.subscribe(publicKey);
    await subscribe(relay, phone.deviceToken, phoneSubscription);

    // A's two calls put 38 pushes ahead of B's call (more than the relay's 32 sends).
    await post(relay, hog.deviceToken, "hog1");
    await post(relay, hog.deviceToken, "hog2");
    await eventually(() => silent.open >= PUSH_SENDS_PER_ACCOUNT_MAX, {
      what: "A's pushes to be on the wire",
    });
    await post(relay, owner.deviceToken, "ring");
    // B's phone is pushed while A's sends are still waiting for their silent endpoints.
    await pushService.waitFor(
      (received) =>
        received.find((push) => push.subscriptionId === phoneSubscription.id && push.status < 300),
      "B's phone to be pushed",
    );
    expect(silent.open).toBeGreaterThan(0);
    expect(silent.mostOpen).toBeLessThanOrEqual(PUSH_SENDS_PER_ACCOUNT_MAX);
  });

  it("stops retrying a subscription that keeps timing out", async () => {
    await using silent = await silentPushService();
    await using relay = await socketRelay({
      pushPollMs: HOUR_MS,
      pushTrustedOrigins: [silent.origin],
      pushConnectTimeoutMs: 200,
    });
    const computer = await relay.signUp("computer");
    const phone = await relay.pair(computer.deviceToken, "phone");
    await subscribe(relay, phone.deviceToken, await subscriptionAt(silent.origin));
    await post(relay, computer.deviceToken, "ev1");
    const timedOut = (line: string) =>
      line.startsWith(`push deferred event=ev1 device=${phone.deviceId} status=no answer`);
    await eventually(() => relay.logs.filter(timedOut).length === 1, { what: "the first push to time out" });
    // Each retry falls due (the backoff's wait, on the relay's clock) and times out again, until the last.
    for (let attempt = 2; attempt <= PUSH_TIMEOUTS_MAX; attempt++) {
      relay.clock.advance(10 * 60 * 1000);
      await relay.server.relay.pushDue();
    }
    expect(relay.logs.filter(timedOut)).toHaveLength(PUSH_TIMEOUTS_MAX - 1);
    expect(relay.logs).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^push subscription timed out ${PUSH_TIMEOUTS_MAX} times in a row event=ev1 device=${phone.deviceId} \\(removed\\)$`,
        ),
      ),
    );
    expect(await relay.store.findPushSubscription(phone.deviceId)).toBeNull();
    const connections = silent.connections;
    relay.clock.advance(60 * 60 * 1000);
    await relay.server.relay.pushDue();
    expect(silent.connections).toBe(connections);
  });
});
