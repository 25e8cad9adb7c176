import type { KeyValueStore } from "@ringback/client";
import { LocalSettings, PushRelay } from "@ringback/client";
import { type PushBrowser, PushSubscriber } from "../app/push/push-subscriber.js";

/**
 * The push service replaced or expired this browser's subscription (`pushsubscriptionchange`): subscribe again with
 * the relay's key and register the new one, with the repeat the user chose, so calls keep ringing while the app is
 * closed. Nothing to do for a device that is not paired, or where notifications are no longer allowed.
 */
export async function renewPushSubscription(
  store: KeyValueStore,
  browser: PushBrowser,
  fetchImpl: typeof fetch = (input, init) => fetch(input, init),
): Promise<"renewed" | "skipped"> {
  const pairing = await new LocalSettings(store).loadPairing();
  if (!pairing || browser.permission() !== "granted") return "skipped";
  const relay = new PushRelay({
    serverUrl: pairing.identity.serverUrl,
    deviceToken: pairing.identity.deviceToken,
    fetch: fetchImpl,
  });
  return (await new PushSubscriber(browser, relay, store).enable()) === "subscribed" ? "renewed" : "skipped";
}

/** The worker's own push side: it cannot ask for permission, only read it. */
export function workerPush(registration: ServiceWorkerRegistration): PushBrowser {
  const permission = () => (typeof Notification === "undefined" ? "unsupported" : Notification.permission);
  return {
    permission,
    requestPermission: async () => permission(),
    pushManager: async () => registration.pushManager,
  };
}
