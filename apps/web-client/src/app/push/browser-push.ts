import type { PushBrowser } from "./push-subscriber.js";

/** The browser's push side in a page: Notification permission and the service worker's push manager. */
export function browserPush(): PushBrowser {
  const isSupported =
    typeof Notification !== "undefined" &&
    typeof navigator !== "undefined" &&
    "serviceWorker" in navigator &&
    typeof PushManager !== "undefined";
  return {
    permission: () => (isSupported ? Notification.permission : "unsupported"),
    requestPermission: async () => (isSupported ? Notification.requestPermission() : "unsupported"),
    pushManager: async () => {
      if (!isSupported) return null;
      const registration = await navigator.serviceWorker.getRegistration();
      return registration?.pushManager ?? null;
    },
  };
}
