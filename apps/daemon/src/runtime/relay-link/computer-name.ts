import { type OwnNameRelay, resealOwnDeviceName, setOwnDeviceName } from "@ringback/client";
import type { E2eKey } from "@ringback/e2e-crypto";
import type { ConfigFile } from "../files/config-file.js";
import type { Logger } from "../logger.js";
import { RelayApi } from "./relay-api.js";

/*
 * This computer's name at the relay is sealed with the account's key (`sealDeviceName`): the relay lists it to the
 * devices without reading it. Setting it is never worth failing a login or a key change over: a name the relay did
 * not take reads as "a computer" on the devices, and a line in the log says so.
 */

/** The relay's routes of this computer's own name, as this computer. */
function ownNameRelay(api: RelayApi, deviceToken: string): OwnNameRelay {
  return {
    listDevices: () => api.listDevices(deviceToken),
    renameDevice: (name) => api.renameDevice(deviceToken, name),
  };
}

export interface ComputerNameOptions {
  readonly log?: Logger;
  readonly fetch?: typeof globalThis.fetch;
}

/** Sets this computer's name sealed with `key` (after a login that had to send the placeholder). */
export async function setComputerName(
  api: RelayApi,
  deviceToken: string,
  key: E2eKey,
  name: string,
  options: ComputerNameOptions = {},
): Promise<void> {
  try {
    await setOwnDeviceName(ownNameRelay(api, deviceToken), key, name);
  } catch (error) {
    options.log?.(
      `this computer's name was not set at the relay (${reasonOf(error)}): devices show "a computer"`,
    );
  }
}

/**
 * After the key changed from `previous` to `next`: this computer's name sealed again under `next`, so the devices
 * that hold the new key read it. The name is the one it logged in with (daemon.json), else its entry at the relay
 * read with `previous`. Nothing to do before a login.
 */
export async function resealComputerName(
  config: ConfigFile,
  keys: { readonly previous: E2eKey; readonly next: E2eKey },
  options: ComputerNameOptions = {},
): Promise<void> {
  const { serverUrl, relay } = config.config;
  if (!serverUrl || !relay?.deviceToken) return;
  const api = new RelayApi(serverUrl, options.fetch);
  try {
    const name = await resealOwnDeviceName(
      ownNameRelay(api, relay.deviceToken),
      keys,
      relay.deviceName ?? null,
    );
    if (name === null)
      options.log?.("this computer's name at the relay is not known here: it stays as it was");
  } catch (error) {
    options.log?.(
      `this computer's name was not sealed under the new key (${reasonOf(error)}): devices with the new key show "a computer"`,
    );
  }
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
