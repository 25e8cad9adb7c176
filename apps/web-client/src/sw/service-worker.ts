import "../shared/zod-without-eval.js";
import type { KeyValueStore } from "@ringback/client";
import { logPushStep } from "@ringback/client";
import { createIdbStore } from "../app/storage/idb-key-value.js";
import { callNotificationTag, eventIdOfTag } from "../shared/notification-tag.js";
import { callNotificationOptions, clickIntent } from "./call-notification.js";
import { pushedCall, pushedEventId, type UnreadWords } from "./push-call.js";
import { fallbackNotice, PUSH_FALLBACK_AFTER_MS, settleWithin } from "./push-fallback.js";
import {
  type ProposedNotification,
  type PushNotificationEvent,
  proposedNotificationOptions,
} from "./push-notification-event.js";
import { renewPushSubscription, workerPush } from "./push-renewal.js";
import { setCallAside } from "./set-aside-call.js";
import { deleteOldShells, precacheShell, shellResponse } from "./shell-cache.js";
import { reportWorkerDelivery } from "./worker-delivery.js";

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

// A push from the relay: a call is ringing, or it stopped ringing. The payload (a declarative message, or bare from an
// older relay) holds its id, routing plaintext and, when it fit, the call sealed; the notification's text comes from
// the sealed call, opened here with the device's key.
self.addEventListener("push", (event) => {
  event.waitUntil(handlePush(pushJson(event.data), plainCallEnding));
});

// Declarative Web Push (Safari, iOS/iPadOS 18.4+ home-screen apps): the browser proposes the relay's content-free
// notification and, as the message is mutable, lets the worker show the opened call in its place. Where the worker
// cannot, the proposed one stands.
self.addEventListener("pushnotification", (event) => {
  const pushEvent = event as PushNotificationEvent;
  const proposed = pushEvent.proposedNotification;
  pushEvent.waitUntil(handlePush(proposed.data, proposedEnding(proposed)));
});

/** How a push ends where the worker cannot show the opened call, and the address a tap opens (if the push named one). */
interface PushEnding {
  readonly navigate?: string;
  /** What a call whose brief cannot be read is titled instead (default: the generic call, in the interface language). */
  readonly unreadWords?: UnreadWords;
  /** Failed or stuck: something must ring rather than nothing. */
  failed(eventId: string | null): Promise<void>;
  /** Nothing new to show (the call ended): where the browser insists on a notification, a silent one. */
  quiet(): Promise<void>;
}

/** The `push` event's: the plain call rings in the interface language; a call that ended shows nothing. */
const plainCallEnding: PushEnding = {
  async failed(eventId) {
    const notice = fallbackNotice(eventId, self.navigator.languages);
    await self.registration.showNotification(notice.title, callNotificationOptions(notice));
  },
  async quiet() {},
};

/** The `pushnotification` event's: the proposed notification stands (silent when the call no longer rings). */
function proposedEnding(proposed: ProposedNotification): PushEnding {
  const show = (isSilent: boolean) =>
    self.registration.showNotification(proposed.title, proposedNotificationOptions(proposed, isSilent));
  return {
    ...(proposed.navigate ? { navigate: proposed.navigate } : {}),
    unreadWords: { title: proposed.title, body: proposed.body },
    failed: () => show(false),
    quiet: () => show(true),
  };
}

function pushJson(data: PushMessageData | null): unknown {
  try {
    return data?.json() ?? null;
  } catch {
    // Not JSON: shown as a call without its brief.
    return null;
  }
}

async function handlePush(payload: unknown, ending: PushEnding): Promise<void> {
  const store = createIdbStore();
  const eventId = pushedEventId(payload);
  // Not waited for before the call is shown: the log must never delay a ring.
  const received = logPushStep(store, eventId, "received");
  const showing = showPushedCall(payload, store, ending);
  const handled = await settleWithin(showing, PUSH_FALLBACK_AFTER_MS);
  if (handled.kind === "done") {
    await received;
    await logPushStep(store, eventId, handled.step);
    await reportShown(eventId, handled.step, store);
    return;
  }
  // Failed or stuck: the plain call rings rather than nothing; a late answer still replaces it (same tag).
  await ending.failed(eventId);
  await logPushStep(store, eventId, `failed: ${handled.why}; rang without the brief`);
  const late = await showing.catch(() => null);
  if (late === null) return;
  await logPushStep(store, eventId, `late: ${late}`);
  await reportShown(eventId, late, store);
}

/** Tells the relay the call was shown here, after the fact: the notification never waits for the relay. */
async function reportShown(eventId: string | null, step: string, store: KeyValueStore): Promise<void> {
  if (eventId && (step === "shown" || step === "missed")) await reportWorkerDelivery(eventId, "shown", store);
}

/** Shows what the push asks for; answers what came of it, for the push log. */
async function showPushedCall(payload: unknown, store: KeyValueStore, ending: PushEnding): Promise<string> {
  // The notification's own texts follow the interface language; "follow the system" reads the browser's languages.
  const call = await pushedCall(
    payload,
    store,
    undefined,
    undefined,
    self.navigator.languages,
    undefined,
    ending.unreadWords,
  );
  if (call.kind === "quiet") {
    // The call ended (answered here or elsewhere, a `call-settled` push) meanwhile: its earlier notification goes
    // too. Nothing new is shown, as for every push that finds the call over.
    if (call.eventId) {
      const tag = callNotificationTag(call.eventId);
      for (const shown of await self.registration.getNotifications({ tag })) shown.close();
    }
    await ending.quiet();
    return `quiet: ${call.reason}`;
  }
  await self.registration.showNotification(call.title, callNotificationOptions(call, ending.navigate));
  return call.kind === "show" ? "shown" : "missed";
}

// The push service replaced or expired the subscription: register a new one, or calls stop ringing while closed.
self.addEventListener("pushsubscriptionchange", (event) => {
  (event as ExtendableEvent).waitUntil(
    renewPushSubscription(createIdbStore(), workerPush(self.registration)).then(() => undefined),
  );
});

// A click on a call's notification, or "Answer", brings the app to the front at the call, where the page answers
// it through the relay as if answered there. "Later" only stops it ringing on this device: the relay hears nothing,
// so the other devices keep ringing.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const eventId = eventIdOfTag(event.notification.tag);
  const store = createIdbStore();
  if (clickIntent(event.action) === "set-aside") {
    if (eventId) event.waitUntil(setCallAside(eventId, store).then(() => tellOpenApp(eventId)));
    return;
  }
  // Both at once: the window must not wait for the relay (a browser lets a worker open one only just after a click).
  const opening = focusApp(eventId);
  const reporting = eventId ? reportWorkerDelivery(eventId, "opened", store) : undefined;
  event.waitUntil(Promise.all([opening, reporting]).then(() => undefined));
});

/** An open window of the app stops ringing the call too, or its next save would undo the worker's "missed". */
async function tellOpenApp(eventId: string): Promise<void> {
  for (const open of await self.clients.matchAll({ type: "window", includeUncontrolled: true }))
    open.postMessage({ type: "ringback-call-set-aside", eventId });
}

async function focusApp(eventId: string | null): Promise<void> {
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  const open = windows[0];
  if (open) {
    // Named before the focus: the open app takes the call even when the browser refuses to bring it forward.
    if (eventId) open.postMessage({ type: "ringback-open-call", eventId });
    await open.focus();
    return;
  }
  const url = new URL(self.registration.scope);
  if (eventId) url.hash = `call=${encodeURIComponent(eventId)}`;
  await self.clients.openWindow(url.href);
}
