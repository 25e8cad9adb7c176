import {
  checkPassphrase,
  deriveKeyFromPassphrase,
  type E2eKey,
  generateKey,
  sealDeviceName,
} from "@ringback/e2e-crypto";
import type { DeviceCredentials, DeviceKind, PairingCodeCreated } from "@ringback/protocol";
import { checkedDeviceName, placeholderDeviceName } from "../devices/device-names.js";
import { setOwnDeviceName } from "../devices/own-device-name.js";
import { RelayClient } from "../relay/relay-client.js";
import type { Pairing } from "../storage/local-settings.js";
import { formatPairingLink, normaliseServerUrl, parsePairingLink } from "./pairing-link.js";

export interface NewDevice {
  readonly deviceName: string;
  readonly deviceKind: DeviceKind;
  readonly fetch?: typeof fetch;
}

/**
 * The key a joining device has: `before` it asks the relay (then its name goes sealed at once), or only from the
 * credentials the relay answers with (a phrase key is salted with the account's id: the name goes as the placeholder,
 * then sealed right after).
 */
type JoinKey =
  | { readonly before: E2eKey }
  | { readonly after: (credentials: DeviceCredentials) => Promise<E2eKey> };

/** Joins the account of a pairing link: the code goes to the relay, the key (from the fragment) stays here. */
export async function joinWithLink(linkText: string, device: NewDevice): Promise<Pairing> {
  const link = parsePairingLink(linkText);
  return redeem(link.serverUrl, link.code, { before: link.key }, device);
}

/**
 * Joins with a 12-digit code (typed with or without spaces) and the account's encryption phrase; the key is derived
 * here, salted with the account's id the relay answers with (passphrase keys version 2), and never sent.
 */
export async function joinWithCode(
  input: { serverUrl: string; code: string; phrase: string },
  device: NewDevice,
): Promise<Pairing> {
  const serverUrl = normaliseServerUrl(input.serverUrl);
  // Checked first: a phrase that is too short fails before the single-use code is spent.
  checkPassphrase(input.phrase);
  return redeem(
    serverUrl,
    input.code.replace(/\D/g, ""),
    { after: (credentials) => deriveKeyFromPassphrase(input.phrase, credentials.accountId) },
    device,
  );
}

/**
 * Creates a new account with this device as its first. The key comes from the phrase when one is given, else it is
 * random; the computer then joins with the pairing link from Settings > Devices.
 */
export async function createAccount(
  input: { serverUrl: string; claimCode?: string; phrase?: string },
  device: NewDevice,
): Promise<Pairing> {
  const serverUrl = normaliseServerUrl(input.serverUrl);
  const { phrase } = input;
  if (phrase) checkPassphrase(phrase);
  // A phrase key is salted with the new account's id: it exists only once the account does.
  const key: JoinKey = phrase
    ? { after: (credentials) => deriveKeyFromPassphrase(phrase, credentials.accountId) }
    : { before: generateKey() };
  const client = new RelayClient({ serverUrl, fetch: device.fetch });
  const credentials = await client.createAccount({
    deviceName: await nameToSend(key, device),
    deviceKind: device.deviceKind,
    ...(input.claimCode ? { claimCode: input.claimCode.trim() } : {}),
  });
  return joined(serverUrl, credentials, key, device);
}

async function redeem(serverUrl: string, code: string, key: JoinKey, device: NewDevice): Promise<Pairing> {
  const client = new RelayClient({ serverUrl, fetch: device.fetch });
  const credentials = await client.redeemPairingCode({
    code,
    deviceName: await nameToSend(key, device),
    deviceKind: device.deviceKind,
  });
  return joined(serverUrl, credentials, key, device);
}

/** The name sealed when the key is at hand, else the placeholder (the device's kind); checked first either way. */
async function nameToSend(key: JoinKey, device: NewDevice): Promise<string> {
  const name = checkedDeviceName(device.deviceName);
  return "before" in key ? sealDeviceName(key.before, name) : placeholderDeviceName(device.deviceKind);
}

/** The pairing, once the device has its key; a name sent as the placeholder is sealed and set now. */
async function joined(
  serverUrl: string,
  credentials: DeviceCredentials,
  key: JoinKey,
  device: NewDevice,
): Promise<Pairing> {
  const pairing: Pairing = {
    identity: { ...credentials, serverUrl, deviceName: checkedDeviceName(device.deviceName) },
    key: "before" in key ? key.before : await key.after(credentials),
  };
  if ("after" in key) {
    const relay = new RelayClient({ serverUrl, deviceToken: credentials.deviceToken, fetch: device.fetch });
    // The device has joined whatever happens here (its code is spent): a name that cannot be set now stays the
    // placeholder, which every device shows as its kind, and is set again when this device's key changes.
    await setOwnDeviceName(relay, pairing.key, device.deviceName).catch(() => undefined);
  }
  return pairing;
}

export interface DeviceInvitation extends PairingCodeCreated {
  readonly link: string;
}

/** Settings > Devices > Add a device: a fresh pairing code, and the link (and QR code) that carries it with the key. */
export async function inviteDevice(
  client: RelayClient,
  pairing: Pairing,
  webAppUrl: string,
): Promise<DeviceInvitation> {
  const created = await client.createPairingCode();
  const link = formatPairingLink(
    { serverUrl: pairing.identity.serverUrl, code: created.code, key: pairing.key },
    webAppUrl,
  );
  return { ...created, link };
}
