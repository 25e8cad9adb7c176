import { PushPublicKey } from "@ringback/protocol";
import { eventually, startTestPushService, type TestSubscription } from "@ringback/test-kit";
import { describe, expect, it } from "vitest";
import {
  PUSH_QUEUED_MAX,
  PUSH_SENDS_AT_ONCE_MAX,
  PUSH_SENDS_PER_ACCOUNT_MAX,
  PUSH_TIMEOUTS_MAX,
} from "../src/runtime/push-delivery.js";
import { PUSH_CLAIM_PER_ACCOUNT_MAX } from "../src/store/store.js";
import { eventBody } from "./support/in-process-relay.js";
import { type PushRelay, pushRelay } from "./support/push-relay.js";
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

/**
 * A push service that takes each push of a subscription and answers only once `release` is called: a slow one (the
 * relay under test waits an hour for an answer, so none of these gives up meanwhile).
 */
function slowAnswers(relay: PushRelay) {
  let release!: () => void;
  const hold = new Promise<void>((resolve) => {
    release = resolve;
  });
  return {
    release,
    /** A device of the account of `token` subscribed at the push service, every push to it held. */
    async device(token: string, publicKey: string, pushes: number) {
      const device = await relay.pair(token, "browser");
      const subscription = relay.pushService.subscribe(publicKey);
      relay.pushService.script(
        subscription.id,
        ...Array.from({ length: pushes }, () => ({ status: 201, hold })),
      );
      await subscribe(relay, device.deviceToken, subscription);
      return subscription;
    },
  };
}

/**
 * Another account's phone at the same push service, answered at once: posts its first call and resolves once the push
 * service has its push. The tenants' pushes are held for an hour, so on a relay that queues it behind them it never
 * comes (the wait fails); how fast it comes is the bench's to measure, not a test's.
 */
async function anotherAccountsFirstPush(relay: PushRelay, publicKey: string): Promise<void> {
  const owner = await relay.signUp("computer");
  const phone = await relay.pair(owner.deviceToken, "phone");
  const subscription = relay.pushService.subscribe(publicKey);
  await subscribe(relay, phone.deviceToken, subscription);
  await post(relay, owner.deviceToken, "ring");
  await relay.pushService.waitFor(
    (received) => received.find((push) => push.subscriptionId === subscription.id && push.status < 300),
    "the other account's first push",
  );
}

describe("one tenant's backlog never holds another account's first push", () => {
  it("when one account floods pushes to a slow push service (more than the relay queues in all)", async () => {
    await using relay = await pushRelay({ pairingsPerAccountMax: 100, pushAnswerTimeoutMs: HOUR_MS });
    const { publicKey } = PushPublicKey.parse((await relay.request("GET", "/v1/push/public-key")).body);
    const slow = slowAnswers(relay);
    try {
      const hog = await relay.signUp("computer");
      const devices = 19;
      // Each post claims a round of the account's pushes: enough calls to claim more than the relay queues in all.
      const calls = Math.ceil(PUSH_QUEUED_MAX / PUSH_CLAIM_PER_ACCOUNT_MAX) + 8;
      for (let index = 0; index < devices; index++) await slow.device(hog.deviceToken, publicKey, calls);
      for (let index = 0; index < calls; index++) await post(relay, hog.deviceToken, `flood${index}`);
      const push = relay.server.relay.runtime.push;
      await expect.poll(() => push.stats().sending).toBe(PUSH_SENDS_PER_ACCOUNT_MAX);

      await anotherAccountsFirstPush(relay, publicKey);
      // The flood is still held at the slow push service (none of it answered), and more of it waits behind.
      expect(relay.pushService.received).toHaveLength(1);
      expect(push.stats().queued).toBeGreaterThan(0);
    } finally {
      slow.release();
    }
  });

  it("when nine accounts' slow pushes hold every shared send", async () => {
    await using relay = await pushRelay({ signupsPerAddressMax: 100, pushAnswerTimeoutMs: HOUR_MS });
    const { publicKey } = PushPublicKey.parse((await relay.request("GET", "/v1/push/public-key")).body);
    const slow = slowAnswers(relay);
    try {
      const hogs = Math.ceil(PUSH_SENDS_AT_ONCE_MAX / PUSH_SENDS_PER_ACCOUNT_MAX) + 1;
      for (let account = 0; account < hogs; account++) {
        const hog = await relay.signUp("computer");
        for (let index = 0; index < PUSH_SENDS_PER_ACCOUNT_MAX; index++)
          await slow.device(hog.deviceToken, publicKey, 1);
        await post(relay, hog.deviceToken, `hog${account}`);
      }
      const push = relay.server.relay.runtime.push;
      await expect.poll(() => push.stats().sending).toBeGreaterThanOrEqual(PUSH_SENDS_AT_ONCE_MAX);

      await anotherAccountsFirstPush(relay, publicKey);
      expect(push.stats().sending).toBeGreaterThanOrEqual(PUSH_SENDS_AT_ONCE_MAX);
    } finally {
      slow.release();
    }
  });
});

describe("a call to many devices of one account", () => {
  it("is pushed to every device in one round, not a claim's worth per poll", async () => {
    // More devices than one claim takes of an account: each poll (every second) used to push 16 of them.
    const devices = PUSH_CLAIM_PER_ACCOUNT_MAX * 4 + 8;
    await using relay = await pushRelay({
      devicesPerAccountMax: devices + 1,
      pairingsPerAccountMax: devices + 1,
    });
    const { publicKey } = PushPublicKey.parse((await relay.request("GET", "/v1/push/public-key")).body);
    const computer = await relay.signUp("computer");
    const subscriptions: TestSubscription[] = [];
    for (let index = 0; index < devices; index++) {
      const device = await relay.pair(computer.deviceToken, "phone");
      const subscription = relay.pushService.subscribe(publicKey);
      await subscribe(relay, device.deviceToken, subscription);
      subscriptions.push(subscription);
    }
    await post(relay, computer.deviceToken, "ev-many-devices");
    // The push timer is an hour away: whatever arrives now, the post's own round sent.
    await relay.pushService.waitFor(
      (received) => (received.length >= devices ? received : undefined),
      `a push to each of ${devices} devices`,
    );
    const pushed = new Set(relay.pushService.received.map((push) => push.subscriptionId));
    expect(subscriptions.every((subscription) => pushed.has(subscription.id))).toBe(true);
  });
});
