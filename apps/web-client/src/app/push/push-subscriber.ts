import { type KeyValueStore, PUSH_SETTINGS_KEY, type PushRelay } from "@ringback/client";
import { PUSH_REPEAT_DEFAULT_SECONDS, type PushSubscriptionState } from "@ringback/protocol";

/** The browser's side of Web Push, as the page reaches it (a fake in tests). */
export interface PushBrowser {
  /** `Notification.permission`, or "unsupported" without Notification, a service worker or PushManager. */
  permission(): NotificationPermission | "unsupported";
  requestPermission(): Promise<NotificationPermission | "unsupported">;
  /** The service worker's push manager; null when there is no service worker yet. */
  pushManager(): Promise<PushManager | null>;
}

/** What the settings entry shows. */
export interface PushSetting {
  readonly permission: NotificationPermission | "unsupported";
  /** The relay holds this browser's current subscription. */
  readonly isSubscribed: boolean;
  readonly repeatSeconds: number;
}

export type EnablePushOutcome = "subscribed" | "denied" | "unsupported";

/**
 * Ringing when the app is closed: once the user allows notifications, the page subscribes this browser to Web Push
 * with the relay's VAPID key and registers the subscription (and how often a ringing call is pushed again) at the
 * relay. Turning it off removes both.
 */
export class PushSubscriber {
  constructor(
    private readonly browser: PushBrowser,
    private readonly relay: PushRelay,
    private readonly store: KeyValueStore,
  ) {}

  async setting(): Promise<PushSetting> {
    const permission = this.browser.permission();
    const repeatSeconds = await this.#storedRepeat();
    if (permission === "unsupported") return { permission, isSubscribed: false, repeatSeconds };
    const manager = await this.browser.pushManager();
    const local = await manager?.getSubscription();
    if (!local) return { permission, isSubscribed: false, repeatSeconds };
    const remote = await this.relay.subscription();
    return {
      permission,
      isSubscribed: remote.subscribed && remote.endpoint === local.endpoint,
      repeatSeconds: remote.repeatSeconds ?? repeatSeconds,
    };
  }

  /** Asks for notifications (from a user gesture), subscribes, and registers the subscription at the relay. */
  async enable(repeatSeconds?: number): Promise<EnablePushOutcome> {
    const permission = await this.browser.requestPermission();
    if (permission === "unsupported") return "unsupported";
    if (permission !== "granted") return "denied";
    const manager = await this.browser.pushManager();
    if (!manager) return "unsupported";
    const { publicKey } = await this.relay.publicKey();
    const applicationServerKey = base64urlBytes(publicKey);
    let subscription = await manager.getSubscription();
    // A subscription made against another relay's key cannot carry this relay's pushes: start afresh.
    if (subscription && !sameBytes(subscription.options.applicationServerKey, applicationServerKey)) {
      await subscription.unsubscribe();
      subscription = null;
    }
    subscription ??= await manager.subscribe({ userVisibleOnly: true, applicationServerKey });
    const repeat = repeatSeconds ?? (await this.#storedRepeat());
    await this.#register(subscription, repeat);
    return "subscribed";
  }

  /** Registers the current subscription again with another repeat. */
  async setRepeat(repeatSeconds: number): Promise<PushSubscriptionState | null> {
    await this.store.set(PUSH_SETTINGS_KEY, { repeatSeconds });
    const subscription = await (await this.browser.pushManager())?.getSubscription();
    return subscription ? this.#register(subscription, repeatSeconds) : null;
  }

  async disable(): Promise<void> {
    await this.relay.unsubscribe();
    await (await (await this.browser.pushManager())?.getSubscription())?.unsubscribe();
  }

  async #register(subscription: PushSubscription, repeatSeconds: number): Promise<PushSubscriptionState> {
    await this.store.set(PUSH_SETTINGS_KEY, { repeatSeconds });
    const json = subscription.toJSON();
    return this.relay.subscribe({
      endpoint: json.endpoint ?? subscription.endpoint,
      expirationTime: json.expirationTime ?? null,
      keys: { p256dh: json.keys?.p256dh ?? "", auth: json.keys?.auth ?? "" },
      repeatSeconds,
    });
  }

  async #storedRepeat(): Promise<number> {
    const stored = await this.store.get<{ repeatSeconds?: unknown }>(PUSH_SETTINGS_KEY);
    return typeof stored?.repeatSeconds === "number" ? stored.repeatSeconds : PUSH_REPEAT_DEFAULT_SECONDS;
  }
}

function base64urlBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

function sameBytes(key: ArrayBuffer | null, expected: Uint8Array): boolean {
  if (!key) return false;
  const actual = new Uint8Array(key);
  return actual.length === expected.length && actual.every((byte, index) => byte === expected[index]);
}
