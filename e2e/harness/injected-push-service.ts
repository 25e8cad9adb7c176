import type { TestSubscription } from "@ringback/test-kit";
import type { BrowserContext } from "playwright-core";

/** The page's record that it subscribed, so a reload finds the subscription as a browser would. */
const SUBSCRIBED_FLAG = "ringback-e2e-push-subscribed";

interface InjectedSubscription {
  readonly endpoint: string;
  readonly keys: { readonly p256dh: string; readonly auth: string };
  /** The relay's VAPID public key (base64url): the only `applicationServerKey` the stand-in accepts. */
  readonly serverKey: string;
  readonly flag: string;
}

/**
 * Puts the project's test push service where the browser's own push service would be, in every page of the
 * device opened from now on: `PushManager.subscribe` answers with `subscription` (a real browser would subscribe
 * at its vendor's service, which a loopback-only test cannot reach), and only when asked with the relay's VAPID key,
 * as a real push service binds a subscription to that key. Everything else, the page's code that asks for it and
 * registers it at the relay included, is the app's own.
 */
export async function injectPushService(
  context: BrowserContext,
  subscription: TestSubscription,
  relayPublicKey: string,
): Promise<void> {
  const injected: InjectedSubscription = {
    endpoint: subscription.endpoint,
    keys: subscription.keys,
    serverKey: relayPublicKey,
    flag: SUBSCRIBED_FLAG,
  };
  await context.addInitScript(({ endpoint, keys, serverKey, flag }: InjectedSubscription) => {
    if (typeof PushManager === "undefined") return;
    const base64url = (bytes: Uint8Array) =>
      btoa(String.fromCharCode(...bytes))
        .replace(/\+/g, "-")
        .replace(/\//g, "_")
        .replace(/=+$/, "");
    const keyBytes = (key: BufferSource | string | null | undefined): Uint8Array => {
      if (typeof key === "string") {
        const base64 = key.replace(/-/g, "+").replace(/_/g, "/");
        return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
      }
      if (!key) return new Uint8Array();
      return key instanceof ArrayBuffer
        ? new Uint8Array(key)
        : new Uint8Array(key.buffer, key.byteOffset, key.byteLength);
    };
    const subscriptionFor = (applicationServerKey: ArrayBuffer) =>
      ({
        endpoint,
        expirationTime: null,
        options: { userVisibleOnly: true, applicationServerKey },
        getKey: () => null,
        toJSON: () => ({ endpoint, expirationTime: null, keys }),
        unsubscribe: async () => {
          localStorage.removeItem(flag);
          return true;
        },
      }) as unknown as PushSubscription;
    const serverKeyBuffer = keyBytes(serverKey).slice().buffer;
    PushManager.prototype.getSubscription = async () =>
      localStorage.getItem(flag) === null ? null : subscriptionFor(serverKeyBuffer);
    PushManager.prototype.subscribe = async (options?: PushSubscriptionOptionsInit) => {
      if (base64url(keyBytes(options?.applicationServerKey)) !== serverKey)
        throw new DOMException("not the relay's applicationServerKey", "InvalidAccessError");
      if (options?.userVisibleOnly !== true)
        throw new DOMException("push without a notification is not allowed", "NotAllowedError");
      localStorage.setItem(flag, "1");
      return subscriptionFor(serverKeyBuffer);
    };
  }, injected);
}
