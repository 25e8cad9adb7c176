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

/**
 * How turning on ended, short of an error: subscribed; notifications refused; a browser without Web Push; or no
 * service worker yet to receive pushes (it registers at the first load: a reload brings it).
 */
export type EnablePushOutcome = "subscribed" | "denied" | "unsupported" | "no-service-worker";

/** Where turning on is: the person deciding on notifications, the browser's push service, then the relay. */
export type EnablePushStep = "asking-permission" | "subscribing" | "registering";

/**
 * How long the browser's push service, and then the relay, each get to answer while push is turned on. Either
 * answers within a second or two when it is reachable; a network or a setting that blocks the browser's push
 * service (Google's for Chromium, Mozilla's, Apple's) leaves the subscription pending for ever, and the person
 * would see nothing happen. The permission prompt is not limited: the person takes the time they need.
 */
export const PUSH_SUBSCRIBE_TIME_LIMIT_MS = 30_000;

/** Why turning on failed, in terms the settings screen words with what to do. */
export type PushEnableProblem = "push-service-timeout" | "push-service-refused" | "relay-timeout";

export class PushEnableError extends Error {
  override readonly name = "PushEnableError";
  constructor(
    readonly problem: PushEnableProblem,
    /** The browser's own words when its push service refused (a DOMException's message), else null. */
    readonly detail: string | null = null,
  ) {
    super(detail ? `${problem}: ${detail}` : problem);
  }
}

/** `work`, or `PushEnableError(problem)` once `limitMs` passed without an answer. */
function withinTimeLimit<T>(work: Promise<T>, limitMs: number, problem: PushEnableProblem): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new PushEnableError(problem)), limitMs);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

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
    private readonly timeLimitMs: number = PUSH_SUBSCRIBE_TIME_LIMIT_MS,
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

  /**
   * Asks for notifications (from a user gesture), subscribes, and registers the subscription at the relay, telling
   * `onStep` where it is. The browser's push service and the relay each get `PUSH_SUBSCRIBE_TIME_LIMIT_MS`; past it,
   * or when the push service refuses, a `PushEnableError` says which.
   */
  async enable(
    repeatSeconds?: number,
    onStep: (step: EnablePushStep) => void = () => undefined,
  ): Promise<EnablePushOutcome> {
    onStep("asking-permission");
    const permission = await this.browser.requestPermission();
    if (permission === "unsupported") return "unsupported";
    if (permission !== "granted") return "denied";
    const manager = await this.browser.pushManager();
    if (!manager) return "no-service-worker";
    onStep("subscribing");
    const { publicKey } = await withinTimeLimit(this.relay.publicKey(), this.timeLimitMs, "relay-timeout");
    const subscription = await withinTimeLimit(
      this.#subscribe(manager, base64urlBytes(publicKey)),
      this.timeLimitMs,
      "push-service-timeout",
    );
    onStep("registering");
    const repeat = repeatSeconds ?? (await this.#storedRepeat());
    await withinTimeLimit(this.#register(subscription, repeat), this.timeLimitMs, "relay-timeout");
    return "subscribed";
  }

  /** This browser's subscription with the relay's key: the one it has, or a new one from its push service. */
  async #subscribe(
    manager: PushManager,
    applicationServerKey: Uint8Array<ArrayBuffer>,
  ): Promise<PushSubscription> {
    let subscription = await manager.getSubscription();
    // A subscription made against another relay's key cannot carry this relay's pushes: start afresh.
    if (subscription && !sameBytes(subscription.options.applicationServerKey, applicationServerKey)) {
      await subscription.unsubscribe();
      subscription = null;
    }
    if (subscription) return subscription;
    try {
      return await manager.subscribe({ userVisibleOnly: true, applicationServerKey });
    } catch (error) {
      // The push service (or the browser on its behalf) said no: "Registration failed - push service error".
      throw new PushEnableError(
        "push-service-refused",
        error instanceof Error ? error.message : String(error),
      );
    }
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
