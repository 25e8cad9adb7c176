import type { DeviceIdentity } from "@ringback/client";
import { RelayClient } from "@ringback/client";

/**
 * How long the worker waits for the relay on each request: a push must end in a notification, so a relay that does
 * not answer in time gets the call rung without its brief rather than not at all; a delivery report or a "Later"
 * gives up just as soon, so no event the browser keeps the worker alive for waits longer.
 */
export const RELAY_WAIT_MS = 8_000;

/** The relay as this device, every request (its answer's body included) bounded by `relayWaitMs`. */
export function workerRelay(
  identity: DeviceIdentity,
  fetchImpl: typeof fetch = (input, init) => fetch(input, init),
  relayWaitMs = RELAY_WAIT_MS,
): RelayClient {
  return new RelayClient({
    serverUrl: identity.serverUrl,
    deviceToken: identity.deviceToken,
    fetch: (input, init) => fetchImpl(input, { ...init, signal: AbortSignal.timeout(relayWaitMs) }),
  });
}
