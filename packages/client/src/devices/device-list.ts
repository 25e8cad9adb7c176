import type { E2eKey } from "@ringback/e2e-crypto";
import type { CallDelivery, DeviceInfo } from "@ringback/protocol";
import { readListedName } from "./device-names.js";

/** A device of the account as this device reads it: `name` opened, null when it does not open. */
export type ReadableDevice = Omit<DeviceInfo, "name"> & { readonly name: string | null };

/** `GET /v1/devices`' list with every name read with `key` (`readListedName`). */
export function readDeviceList(key: E2eKey, devices: readonly DeviceInfo[]): Promise<ReadableDevice[]> {
  return Promise.all(
    devices.map(async (device) => ({ ...device, name: await readListedName(key, device.name, device.kind) })),
  );
}

/** A delivery record as this device reads it: the device's name opened, null when it does not open. */
export type ReadableDelivery = Omit<CallDelivery, "deviceName"> & { readonly deviceName: string | null };

/** A `call-delivery` record with its device's name read with `key`. */
export async function readDelivery(key: E2eKey, delivery: CallDelivery): Promise<ReadableDelivery> {
  return { ...delivery, deviceName: await readListedName(key, delivery.deviceName, delivery.deviceKind) };
}
