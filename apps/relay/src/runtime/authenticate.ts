import { RingbackError } from "@ringback/protocol";
import type { Clock } from "../clock.js";
import { LAST_SEEN_WRITE_INTERVAL_MS } from "../relay-config.js";
import type { DeviceRecord, RelayStore } from "../store/store.js";
import { hashSecret } from "./secrets.js";

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * The device behind an `Authorization: Bearer` header. A missing, unknown or removed token is 401
 * `device_removed`: to the app every 401 means "this device is no longer paired".
 */
export async function authenticate(
  store: RelayStore,
  clock: Clock,
  authorization: string | undefined,
): Promise<DeviceRecord> {
  const token = authorization?.match(BEARER)?.[1];
  if (!token) throw new RingbackError("device_removed", "No device token was sent (Authorization: Bearer).");
  const device = await store.findDeviceByTokenHash(hashSecret(token));
  if (!device) throw new RingbackError("device_removed");
  await store.touchDevice(device.id, clock.now(), LAST_SEEN_WRITE_INTERVAL_MS);
  return device;
}
