import type { PushBrowser } from "@ringback/client";
import { createMemoryStore, PUSH_SETTINGS_KEY } from "@ringback/client";
import { describe, expect, it } from "vitest";
import { renewPushSubscription } from "./push-renewal.js";
import { pairedTestStore } from "./worker-test-fixtures.js";

const RELAY_KEY = `B${"A".repeat(86)}`;
const keys = { p256dh: `B${"Q".repeat(86)}`, auth: "S".repeat(22) };

/** A push manager whose old subscription is gone: subscribing gives a new endpoint. */
function renewedBrowser(permission: NotificationPermission): PushBrowser & { subscribed: number } {
  const browser = {
    subscribed: 0,
    permission: () => permission,
    requestPermission: async () => permission,
    pushManager: async () =>
      ({
        getSubscription: async () => null,
        subscribe: async () => {
          browser.subscribed++;
          return {
            endpoint: "https://push.example/renewed",
            toJSON: () => ({ endpoint: "https://push.example/renewed", expirationTime: null, keys }),
          };
        },
      }) as unknown as PushManager,
  };
  return browser;
}

function relayRecordingPuts() {
  const puts: unknown[] = [];
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    if (String(input).endsWith("/v1/push/public-key")) return Response.json({ publicKey: RELAY_KEY });
    puts.push({
      authorization: new Headers(init?.headers).get("Authorization"),
      body: JSON.parse(String(init?.body)),
    });
    return Response.json({
      deviceId: "dev_phone",
      subscribed: true,
      endpoint: "https://push.example/renewed",
      repeatSeconds: 120,
      updatedAt: "2026-03-02T10:00:00.000Z",
    });
  }) as typeof fetch;
  return { fetchImpl, puts };
}

async function pairedStore() {
  const store = await pairedTestStore();
  await store.set(PUSH_SETTINGS_KEY, { repeatSeconds: 120 });
  return store;
}

describe("renewing the push subscription in the service worker", () => {
  it("subscribes again and registers the new subscription with the chosen repeat", async () => {
    const relay = relayRecordingPuts();
    const browser = renewedBrowser("granted");
    expect(await renewPushSubscription(await pairedStore(), browser, relay.fetchImpl)).toBe("renewed");
    expect(browser.subscribed).toBe(1);
    expect(relay.puts).toEqual([
      {
        authorization: "Bearer token-phone",
        body: { endpoint: "https://push.example/renewed", expirationTime: null, keys, repeatSeconds: 120 },
      },
    ]);
  });

  it("does nothing on a device that is not paired or no longer allows notifications", async () => {
    const relay = relayRecordingPuts();
    expect(await renewPushSubscription(createMemoryStore(), renewedBrowser("granted"), relay.fetchImpl)).toBe(
      "skipped",
    );
    const denied = renewedBrowser("denied");
    expect(await renewPushSubscription(await pairedStore(), denied, relay.fetchImpl)).toBe("skipped");
    expect(denied.subscribed).toBe(0);
    expect(relay.puts).toEqual([]);
  });
});
