import type { DeviceKind } from "@ringback/protocol";
import { isSealedDeviceName } from "../devices/device-names.js";
import type { CallRecord } from "./call-record.js";
import type { DeliveryEntry } from "./delivery-entries.js";

/** A device as a call's delivery records name it: its name when readable, its kind when a record says it. */
export interface DeliveryDevice {
  readonly name: string | null;
  readonly kind: DeviceKind | null;
}

/**
 * An entry's device name as a screen may show it: never ciphertext, which a record kept by an older version (before
 * names were read on arrival) may hold as the relay sent it.
 */
export function readableEntryName(entry: DeliveryEntry): string | null {
  return entry.deviceName !== null && isSealedDeviceName(entry.deviceName) ? null : entry.deviceName;
}

/** The device `deviceId` as the call's latest delivery record of it names it; nothing known without one. */
export function deliveryDeviceOf(record: CallRecord, deviceId: string | null): DeliveryDevice {
  const entry =
    deviceId === null
      ? undefined
      : (record.status.deliveries ?? []).findLast((candidate) => candidate.deviceId === deviceId);
  return entry
    ? { name: readableEntryName(entry), kind: entry.deviceKind ?? null }
    : { name: null, kind: null };
}
