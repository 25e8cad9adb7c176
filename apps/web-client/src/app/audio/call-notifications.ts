import { CALL_NOTIFICATION_TAG_PREFIX } from "../../shared/notification-tag.js";

/** System notifications for a ringing call, shown when the page cannot ring out loud or is in the background. */
export interface CallNotifier {
  readonly permission: NotificationPermission | "unsupported";
  requestPermission(): Promise<NotificationPermission | "unsupported">;
  show(eventId: string, title: string, body: string): Promise<void>;
  close(eventId: string): Promise<void>;
}

// Shared with the service worker: a pushed notification of the call is the same notification.
const TAG_PREFIX = CALL_NOTIFICATION_TAG_PREFIX;

export function createCallNotifier(): CallNotifier {
  const isSupported = typeof Notification !== "undefined";
  const shown = new Map<string, Notification>();
  const registration = async (): Promise<ServiceWorkerRegistration | undefined> => {
    if (typeof navigator === "undefined" || !("serviceWorker" in navigator)) return undefined;
    return navigator.serviceWorker.getRegistration();
  };
  return {
    get permission() {
      return isSupported ? Notification.permission : "unsupported";
    },
    async requestPermission() {
      if (!isSupported) return "unsupported";
      if (Notification.permission !== "default") return Notification.permission;
      return Notification.requestPermission();
    },
    async show(eventId, title, body) {
      if (!isSupported || Notification.permission !== "granted") return;
      const options: NotificationOptions = { body, tag: TAG_PREFIX + eventId, requireInteraction: true };
      // Phones only show notifications through the service worker.
      const worker = await registration();
      if (worker) {
        await worker.showNotification(title, options);
        return;
      }
      shown.set(eventId, new Notification(title, options));
    },
    async close(eventId) {
      shown.get(eventId)?.close();
      shown.delete(eventId);
      const worker = await registration();
      for (const notification of (await worker?.getNotifications({ tag: TAG_PREFIX + eventId })) ?? []) {
        notification.close();
      }
    },
  };
}
