import { createMemoryStore, PUSH_SETTINGS_KEY, PushRelay } from "@ringback/client";
import type { PushSubscriptionRequest, PushSubscriptionState } from "@ringback/protocol";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  type EnablePushStep,
  PUSH_SUBSCRIBE_TIME_LIMIT_MS,
  type PushBrowser,
  PushEnableError,
  PushSubscriber,
} from "./push-subscriber.js";

const RELAY_KEY = `B${"A".repeat(86)}`;
const OTHER_KEY = `B${"C".repeat(86)}`;
const p256dh = `B${"Q".repeat(86)}`;
const auth = "S".repeat(22);

const bytes = (base64url: string) => Uint8Array.from(Buffer.from(base64url, "base64url"));

/**
 * A browser's PushManager holding at most one subscription; its push service answers, never answers (a network
 * that blocks it), or refuses as Chromium does.
 */
class FakePushManager {
  current: PushSubscription | null = null;
  subscribed = 0;
  unsubscribed = 0;
  pushService: "answers" | "never-answers" | "refuses" = "answers";

  async getSubscription() {
    return this.current;
  }

  async subscribe(options: PushSubscriptionOptionsInit) {
    if (this.pushService === "never-answers") return new Promise<PushSubscription>(() => undefined);
    if (this.pushService === "refuses")
      throw new DOMException("Registration failed - push service error", "AbortError");
    this.subscribed++;
    this.current = this.#subscription(
      `https://push.example/${this.subscribed}`,
      options.applicationServerKey as Uint8Array,
    );
    return this.current;
  }

  #subscription(endpoint: string, key: Uint8Array): PushSubscription {
    const manager = this;
    return {
      endpoint,
      options: { applicationServerKey: key.slice().buffer, userVisibleOnly: true },
      toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }),
      async unsubscribe() {
        manager.unsubscribed++;
        manager.current = null;
        return true;
      },
    } as unknown as PushSubscription;
  }

  existing(endpoint: string, key: string) {
    this.current = this.#subscription(endpoint, bytes(key));
  }
}

function browser(
  permission: NotificationPermission | "unsupported",
  manager: FakePushManager | null,
): PushBrowser {
  return {
    permission: () => permission,
    requestPermission: async () => permission,
    pushManager: async () => manager as unknown as PushManager | null,
  };
}

/** The relay's push routes, in memory; `registration: "never-answers"` leaves `PUT` unanswered. */
function fakeRelay(registration: "answers" | "never-answers" = "answers") {
  let held: (PushSubscriptionRequest & { repeatSeconds: number }) | null = null;
  const state = (): PushSubscriptionState => ({
    deviceId: "dev_phone",
    subscribed: held !== null,
    endpoint: held?.endpoint ?? null,
    repeatSeconds: held?.repeatSeconds ?? null,
    updatedAt: held ? "2026-03-02T10:00:00.000Z" : null,
  });
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input)).pathname;
    if (path === "/v1/push/public-key") return Response.json({ publicKey: RELAY_KEY });
    if (init?.method === "PUT" && registration === "never-answers")
      return new Promise<Response>(() => undefined);
    if (init?.method === "PUT") held = JSON.parse(String(init.body));
    if (init?.method === "DELETE") held = null;
    return Response.json(state());
  }) as typeof fetch;
  return {
    relay: new PushRelay({ serverUrl: "https://relay.example/", deviceToken: "t", fetch: fetchImpl }),
    held: () => held,
  };
}

describe("subscribing this device to Web Push", () => {
  it("subscribes with the relay's key once notifications are allowed and registers it with the repeat", async () => {
    const manager = new FakePushManager();
    const { relay, held } = fakeRelay();
    const store = createMemoryStore();
    const subscriber = new PushSubscriber(browser("granted", manager), relay, store);
    expect(await subscriber.enable(120)).toBe("subscribed");
    expect(held()).toEqual({
      endpoint: "https://push.example/1",
      expirationTime: null,
      keys: { p256dh, auth },
      repeatSeconds: 120,
    });
    expect(await subscriber.setting()).toEqual({
      permission: "granted",
      isSubscribed: true,
      repeatSeconds: 120,
    });
    expect(await store.get(PUSH_SETTINGS_KEY)).toEqual({ repeatSeconds: 120 });
  });

  it("does not subscribe when the user blocks notifications", async () => {
    const manager = new FakePushManager();
    const { relay, held } = fakeRelay();
    const subscriber = new PushSubscriber(browser("denied", manager), relay, createMemoryStore());
    expect(await subscriber.enable()).toBe("denied");
    expect(manager.subscribed).toBe(0);
    expect(held()).toBeNull();
  });

  it("keeps a subscription made with the relay's key and replaces one made with another key", async () => {
    const manager = new FakePushManager();
    const { relay, held } = fakeRelay();
    const subscriber = new PushSubscriber(browser("granted", manager), relay, createMemoryStore());
    manager.existing("https://push.example/same", RELAY_KEY);
    await subscriber.enable();
    expect(held()?.endpoint).toBe("https://push.example/same");
    expect(manager.subscribed).toBe(0);
    manager.existing("https://push.example/other-relay", OTHER_KEY);
    await subscriber.enable();
    expect(manager.unsubscribed).toBe(1);
    expect(held()?.endpoint).toBe("https://push.example/1");
  });

  it("changes the repeat and turns off at the relay and in the browser", async () => {
    const manager = new FakePushManager();
    const { relay, held } = fakeRelay();
    const subscriber = new PushSubscriber(browser("granted", manager), relay, createMemoryStore());
    await subscriber.enable();
    expect(held()?.repeatSeconds).toBe(60);
    await subscriber.setRepeat(30);
    expect(held()?.repeatSeconds).toBe(30);
    await subscriber.disable();
    expect(held()).toBeNull();
    expect(manager.current).toBeNull();
    expect((await subscriber.setting()).isSubscribed).toBe(false);
  });

  it("tells each step as it goes: the permission, the browser's push service, the relay", async () => {
    const steps: EnablePushStep[] = [];
    const subscriber = new PushSubscriber(
      browser("granted", new FakePushManager()),
      fakeRelay().relay,
      createMemoryStore(),
    );
    expect(await subscriber.enable(undefined, (step) => steps.push(step))).toBe("subscribed");
    expect(steps).toEqual(["asking-permission", "subscribing", "registering"]);
  });

  it("says there is no service worker yet instead of pretending the browser cannot do it", async () => {
    const { relay, held } = fakeRelay();
    const subscriber = new PushSubscriber(browser("granted", null), relay, createMemoryStore());
    expect(await subscriber.enable()).toBe("no-service-worker");
    expect(held()).toBeNull();
  });

  describe("with a clock the test moves", () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it("gives up on a push service that never answers once the time limit has passed", async () => {
      vi.useFakeTimers();
      const manager = new FakePushManager();
      manager.pushService = "never-answers";
      const { relay, held } = fakeRelay();
      const steps: EnablePushStep[] = [];
      const subscriber = new PushSubscriber(browser("granted", manager), relay, createMemoryStore());
      const enabling = subscriber.enable(undefined, (step) => steps.push(step));
      const settled = enabling.then(
        () => "subscribed",
        (error: unknown) => error,
      );
      await vi.advanceTimersByTimeAsync(PUSH_SUBSCRIBE_TIME_LIMIT_MS - 1);
      expect(steps).toEqual(["asking-permission", "subscribing"]);
      await vi.advanceTimersByTimeAsync(1);
      const error = await settled;
      expect(error).toBeInstanceOf(PushEnableError);
      expect(error).toMatchObject({ problem: "push-service-timeout", detail: null });
      expect(held()).toBeNull();
    });

    it("gives up on a relay that does not confirm the subscription", async () => {
      vi.useFakeTimers();
      const { relay } = fakeRelay("never-answers");
      const subscriber = new PushSubscriber(
        browser("granted", new FakePushManager()),
        relay,
        createMemoryStore(),
      );
      const settled = subscriber.enable().catch((error: unknown) => error);
      await vi.advanceTimersByTimeAsync(PUSH_SUBSCRIBE_TIME_LIMIT_MS);
      expect(await settled).toMatchObject({ problem: "relay-timeout" });
    });
  });

  it("passes on the push service's refusal in its own words", async () => {
    const manager = new FakePushManager();
    manager.pushService = "refuses";
    const subscriber = new PushSubscriber(
      browser("granted", manager),
      fakeRelay().relay,
      createMemoryStore(),
    );
    await expect(subscriber.enable()).rejects.toMatchObject({
      problem: "push-service-refused",
      detail: "Registration failed - push service error",
    });
  });
});
