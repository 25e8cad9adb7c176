import type { CallNotificationOptions } from "./call-notification.js";

/**
 * WebKit's `pushnotification` event (Declarative Web Push, Safari and iOS/iPadOS 18.4+ home-screen apps), which the
 * WebWorker types do not have yet: a mutable declarative push's notification as the browser proposes to show it.
 * The worker may show another in its place (`waitUntil(showNotification(...))`); if it does not, the proposed one
 * stands.
 */
export interface PushNotificationEvent extends ExtendableEvent {
  readonly proposedNotification: ProposedNotification;
}

/** The proposed notification: the relay's content-free words, `data` the relay's message, `navigate` the tap's address. */
export interface ProposedNotification {
  readonly title: string;
  readonly body: string;
  readonly tag: string;
  readonly data: unknown;
  readonly navigate?: string;
}

/**
 * The proposed notification shown as it is (where the worker cannot put the opened call in its place), silent when
 * the call no longer rings: what the browser shows by itself anyway, so a browser that lets the worker decide does the
 * same.
 */
export function proposedNotificationOptions(
  proposed: ProposedNotification,
  isSilent: boolean,
): CallNotificationOptions {
  return {
    body: proposed.body,
    tag: proposed.tag,
    data: proposed.data,
    renotify: !isSilent,
    silent: isSilent,
    requireInteraction: !isSilent,
    actions: [],
    ...(proposed.navigate ? { navigate: proposed.navigate } : {}),
  };
}
