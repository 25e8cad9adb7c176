import type { KeyValueStore } from "@ringback/client";
import { LocalSettings } from "@ringback/client";
import type { DeviceDeliveryOutcome } from "@ringback/protocol";
import { RELAY_WAIT_MS, workerRelay } from "./worker-relay.js";

/**
 * Tells the relay how far a call got on this device (`POST /v1/calls/<eventId>/deliveries`): `shown` once its
 * notification is up, `opened` once it is clicked. Within `relayWaitMs`, and whether the relay took it (true) or not
 * (false) changes nothing: the notification never waits for it, and the page reports its own outcomes too.
 */
export async function reportWorkerDelivery(
  eventId: string,
  outcome: DeviceDeliveryOutcome,
  store: KeyValueStore,
  fetchImpl: typeof fetch = (input, init) => fetch(input, init),
  relayWaitMs = RELAY_WAIT_MS,
): Promise<boolean> {
  try {
    const pairing = await new LocalSettings(store).loadPairing();
    if (!pairing) return false;
    await workerRelay(pairing.identity, fetchImpl, relayWaitMs).reportDelivery(eventId, outcome);
    return true;
  } catch {
    return false;
  }
}
