import { type E2eKey, sealDeviceName } from "@ringback/e2e-crypto";
import type { DeviceList } from "@ringback/protocol";
import { checkedDeviceName, readListedName } from "./device-names.js";

/** The two relay routes a device's own name takes (`RelayClient` has them; the daemon passes its own). */
export interface OwnNameRelay {
  listDevices(): Promise<DeviceList>;
  renameDevice(name: string): Promise<unknown>;
}

/** This device's name, sealed with `key`, is what the relay lists for it from now on (`PUT /v1/devices/me/name`). */
export async function setOwnDeviceName(
  relay: Pick<OwnNameRelay, "renameDevice">,
  key: E2eKey,
  name: string,
): Promise<void> {
  await relay.renameDevice(await sealDeviceName(key, checkedDeviceName(name)));
}

/**
 * After this device's key changed from `previous` to `next`: its name sealed again under `next`, so the devices that
 * hold the new key read it. The name is `knownName` (kept since it joined), else its entry at the relay read with
 * `previous` (a plaintext name from an older version as it is); null, and nothing sent, when neither gives one.
 */
export async function resealOwnDeviceName(
  relay: OwnNameRelay,
  keys: { readonly previous: E2eKey; readonly next: E2eKey },
  knownName: string | null = null,
): Promise<string | null> {
  const name = knownName ?? (await ownNameAtRelay(relay, keys.previous));
  if (name === null) return null;
  await setOwnDeviceName(relay, keys.next, name);
  return name;
}

async function ownNameAtRelay(relay: OwnNameRelay, key: E2eKey): Promise<string | null> {
  const own = (await relay.listDevices()).devices.find((device) => device.isCurrent);
  return own ? readListedName(key, own.name, own.kind) : null;
}
