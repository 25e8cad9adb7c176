import { createIdbStore } from "../app/storage/idb-key-value.js";
import { callNotificationTag, eventIdOfTag } from "../shared/notification-tag.js";
import { pushedCall } from "./push-call.js";
import { renewPushSubscription, workerPush } from "./push-renewal.js";
import { deleteOldShells, precacheShell, shellResponse } from "./shell-cache.js";

declare const self: ServiceWorkerGlobalScope;

self.addEventListener("install", (event) => {
  event.waitUntil(precacheShell(self.registration.scope).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(deleteOldShells().then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const response = shellResponse(event.request, self.registration.scope);
  if (response) event.respondWith(response);
});

// A push from the relay: a call is ringing, or it stopped ringing. The payload holds only its id and routing
// plaintext; the notification's text comes from the sealed event, fetched and opened here with the device's key.
self.addEventListener("push", (event) => {
  event.waitUntil(showPushedCall(event.data));
});

async function showPushedCall(data: PushMessageData | null): Promise<void> {
  let payload: unknown = null;
  try {
    payload = data?.json() ?? null;
  } catch {
    // Not JSON: shown as a call without its brief.
  }
  // The notification's own texts follow the interface language; "follow the system" reads the browser's languages.
  const call = await pushedCall(payload, createIdbStore(), undefined, undefined, self.navigator.languages);
  if (call.kind === "quiet") {
    // The call ended (answered here or elsewhere, a `call-settled` push) meanwhile: its earlier notification goes
    // too. Nothing new is shown, as for every push that finds the call over.
    if (call.eventId) {
      const tag = callNotificationTag(call.eventId);
      for (const shown of await self.registration.getNotifications({ tag })) shown.close();
    }
    return;
  }
  // A repeat replaces the call's notification (same tag) and rings again (renotify). A missed call never rings:
  // silent, no renotify, and it may go away on its own like any missed-call notice.
  const isRinging = call.kind === "show";
  const options = {
    body: call.body,
    tag: call.tag,
    renotify: isRinging,
    silent: !isRinging,
    requireInteraction: isRinging,
    data: { eventId: call.eventId },
  } as NotificationOptions;
  await self.registration.showNotification(call.title, options);
}

// The push service replaced or expired the subscription: register a new one, or calls stop ringing while closed.
self.addEventListener("pushsubscriptionchange", (event) => {
  (event as ExtendableEvent).waitUntil(
    renewPushSubscription(createIdbStore(), workerPush(self.registration)).then(() => undefined),
  );
});

// A click on a ringing call's notification brings the app to the front at the call, where it rings.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(focusApp(eventIdOfTag(event.notification.tag)));
});

async function focusApp(eventId: string | null): Promise<void> {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = windows[0];
  if (open) {
    await open.focus();
    if (eventId) open.postMessage({ type: "ringback-open-call", eventId });
    return;
  }
  const url = new URL(self.registration.scope);
  if (eventId) url.hash = `call=${encodeURIComponent(eventId)}`;
  await self.clients.openWindow(url.href);
}
