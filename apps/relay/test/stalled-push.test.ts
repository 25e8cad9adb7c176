import { PushPublicKey } from "@ringback/protocol";
import { startTestPushService, type TestSubscription } from "@ringback/test-kit";
import { describe, expect, it, onTestFinished } from "vitest";
import { silentLog } from "../src/log.js";
import {
  PUSH_FIRST_SENDS_MAX,
  PUSH_QUEUED_MAX,
  PUSH_SENDS_AT_ONCE_MAX,
  PUSH_SENDS_PER_ACCOUNT_MAX,
  PushDelivery,
} from "../src/runtime/push-delivery.js";
import { PushKeys } from "../src/runtime/push-keys.js";
import {
  type DuePush,
  PUSH_CLAIM_BATCH_MAX,
  type PushSettlement,
  type RelayStore,
} from "../src/store/store.js";
import { FakeClock } from "./support/fake-clock.js";
import { eventBody } from "./support/in-process-relay.js";
import { silentPushService } from "./support/silent-push-service.js";
import { socketRelay } from "./support/socket-relay.js";
import { SseClient } from "./support/sse-client.js";

const HOUR_MS = 60 * 60 * 1000;
/** Accounts the stand-in store has pushes of (more than the relay's shared sends). */
const ACCOUNTS = 64;
/** How long to wait for what the relay does on its own (a budget for a busy machine, not a speed). */
const WAIT = { timeout: 10_000 };

/** A browser-side subscription (real keys) whose endpoint is the silent service. */
async function silentSubscription(origin: string): Promise<TestSubscription> {
  await using keysFrom = await startTestPushService();
  const subscription = keysFrom.subscribe();
  return { ...subscription, endpoint: `${origin}/push/${subscription.id}` };
}

describe("a push service that accepts connections and never answers", () => {
  it("holds up no SSE delivery and no daemon post, and gets at most the bounded number of sends at once", async () => {
    await using silent = await silentPushService();
    await using relay = await socketRelay({ pushTrustedOrigins: [silent.origin], pushPollMs: HOUR_MS });
    const computer = await relay.signUp("computer");
    const phone = await relay.pair(computer.deviceToken, "phone");
    const { publicKey } = PushPublicKey.parse((await relay.request("GET", "/v1/push/public-key")).body);
    expect(publicKey).toBeTruthy();
    const subscription = await silentSubscription(silent.origin);
    const subscribed = await relay.request("PUT", "/v1/push/subscription", {
      token: phone.deviceToken,
      body: { endpoint: subscription.endpoint, keys: subscription.keys, expirationTime: null },
    });
    expect(subscribed.status).toBe(200);
    using stream = new SseClient(relay.url, phone.deviceToken);
    await stream.waitForSynced();

    const events = PUSH_SENDS_AT_ONCE_MAX + 8;
    for (let index = 0; index < events; index++) {
      const posted = await relay.request("POST", "/v1/daemon/events", {
        token: computer.deviceToken,
        body: eventBody(`ev${index}`),
      });
      expect(posted.status).toBe(201);
    }
    await stream.waitUntil(
      () => (stream.of("call").length === events ? true : undefined),
      "every call on the stream",
    );
    const push = relay.server.relay.runtime.push;
    // Every push is claimed and stuck: one account's bounded number on the wire, the rest waiting their turn.
    await expect
      .poll(() => push.stats(), WAIT)
      .toEqual({ sending: PUSH_SENDS_PER_ACCOUNT_MAX, queued: events - PUSH_SENDS_PER_ACCOUNT_MAX });
    await expect.poll(() => silent.open, WAIT).toBe(PUSH_SENDS_PER_ACCOUNT_MAX);
    expect(silent.mostOpen).toBeLessThanOrEqual(PUSH_SENDS_PER_ACCOUNT_MAX);
  });

  it("times the silent sends out, retries them later, and claims no more while its queue is full", async () => {
    await using silent = await silentPushService();
    const subscription = await silentSubscription(silent.origin);
    const clock = new FakeClock();
    let claimed = 0;
    let isTestOver = false;
    const trustedOrigins = [silent.origin];
    const settlements: PushSettlement[] = [];
    // A store with ever more pushes due: only the queue bound stops the claiming.
    const store = {
      vapidKeys: async (candidate: { publicKey: string; privateKey: string }) => candidate,
      claimDuePushes: async (now: number, exceptAccounts: readonly string[] = []): Promise<DuePush[]> => {
        if (isTestOver) return [];
        // Many accounts and devices: only the relay's own bounds hold them up (and no subscription times out often
        // enough to be removed); as a real store, none of the accounts the relay has enough of.
        const accounts = Array.from({ length: ACCOUNTS }, (_, index) => `acc${index}`).filter(
          (accountId) => !exceptAccounts.includes(accountId),
        );
        if (accounts.length === 0) return [];
        return Array.from({ length: PUSH_CLAIM_BATCH_MAX }, () => {
          claimed++;
          const accountId = accounts[claimed % accounts.length] as string;
          const deviceId = `phone${claimed}`;
          return {
            accountId,
            eventId: `ev${claimed}`,
            deviceId,
            subscription: {
              deviceId,
              accountId,
              endpoint: subscription.endpoint,
              p256dh: subscription.keys.p256dh,
              auth: subscription.keys.auth,
              repeatSeconds: 60,
              updatedAt: now,
            },
            seq: claimed,
            source: "codex",
            occurredAt: new Date(now).toISOString(),
            receivedAt: now,
            taskId: null,
            fromDeviceId: "pc",
            expiresAt: now + HOUR_MS,
            attempt: 1,
            failures: 0,
            sealed: null,
          };
        });
      },
      settlePush: async (_key: unknown, settlement: PushSettlement) => {
        settlements.push(settlement);
      },
      removePushSubscription: async () => true,
    } as unknown as RelayStore;
    const delivery = new PushDelivery({
      store,
      clock,
      log: silentLog,
      keys: new PushKeys(store),
      transport: {
        subject: "mailto:test@example.org",
        endpoints: { hosts: [], trustedOrigins },
        connectTimeoutMs: 1000,
      },
      onPushed: async () => {},
    });
    // Each retry frees room for the next claim: the store hands out no more once the test is over, and the pushes
    // still queued are refused at once (their origin no longer trusted), not each sealed and sent to a closed port.
    // Nothing runs on into the next file of the worker.
    onTestFinished(async () => {
      isTestOver = true;
      trustedOrigins.length = 0;
      await expect.poll(() => delivery.stats(), WAIT).toEqual({ sending: 0, queued: 0 });
    });
    for (let round = 0; round < 5; round++) delivery.kick();
    // The shared sends, and one first send for each account beyond them.
    const sendsAtMost =
      PUSH_SENDS_AT_ONCE_MAX + Math.min(ACCOUNTS - PUSH_SENDS_AT_ONCE_MAX, PUSH_FIRST_SENDS_MAX);
    await expect.poll(() => delivery.stats().sending, WAIT).toBe(sendsAtMost);
    const { sending, queued } = delivery.stats();
    expect(sending + queued).toBeLessThanOrEqual(PUSH_QUEUED_MAX + PUSH_CLAIM_BATCH_MAX);
    expect(claimed).toBeLessThanOrEqual(PUSH_QUEUED_MAX + PUSH_CLAIM_BATCH_MAX);
    expect(silent.mostOpen).toBeLessThanOrEqual(sendsAtMost);
    // Full: another round claims nothing.
    expect(sending + queued).toBeGreaterThanOrEqual(PUSH_QUEUED_MAX);
    const claimedWhileFull = claimed;
    await delivery.deliverDue();
    expect(claimed).toBe(claimedWhileFull);
    // The silence ends each send as a failure to retry, with backoff.
    await expect
      .poll(() => settlements.length, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(PUSH_SENDS_AT_ONCE_MAX);
    expect(settlements.every((settlement) => settlement.kind === "retry")).toBe(true);
    expect(delivery.stats().sending + delivery.stats().queued).toBeLessThanOrEqual(
      PUSH_QUEUED_MAX + PUSH_CLAIM_BATCH_MAX,
    );
  });
});
