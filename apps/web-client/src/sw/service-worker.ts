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

// A click on a ringing call's notification brings the app to the front, where the call rings.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  event.waitUntil(focusApp());
});

async function focusApp(): Promise<void> {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = windows[0];
  if (open) {
    await open.focus();
    return;
  }
  await self.clients.openWindow(self.registration.scope);
}
