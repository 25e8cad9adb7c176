import { checkPassphrase, deriveKeyFromPassphrase, type E2eKey, generateKey } from "@ringback/e2e-crypto";
import type { DeviceCredentials, DeviceKind, PairingCodeCreated } from "@ringback/protocol";
import { RelayClient } from "../relay/relay-client.js";
import type { Pairing } from "../storage/local-settings.js";
import { formatPairingLink, normaliseServerUrl, parsePairingLink } from "./pairing-link.js";

export interface NewDevice {
  readonly deviceName: string;
  readonly deviceKind: DeviceKind;
  readonly fetch?: typeof fetch;
}

/** Joins the account of a pairing link: the code goes to the relay, the key (from the fragment) stays here. */
export async function joinWithLink(linkText: string, device: NewDevice): Promise<Pairing> {
  const link = parsePairingLink(linkText);
  return redeem(link.serverUrl, link.code, async () => link.key, device);
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
    (credentials) => deriveKeyFromPassphrase(input.phrase, credentials.accountId),
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
  if (input.phrase) checkPassphrase(input.phrase);
  const client = new RelayClient({ serverUrl, fetch: device.fetch });
  const credentials = await client.createAccount({
    deviceName: device.deviceName,
    deviceKind: device.deviceKind,
    ...(input.claimCode ? { claimCode: input.claimCode.trim() } : {}),
  });
  // Salted with the new account's id: the key exists only once the account does.
  const key = input.phrase
    ? await deriveKeyFromPassphrase(input.phrase, credentials.accountId)
    : generateKey();
  return { identity: { ...credentials, serverUrl }, key };
}

async function redeem(
  serverUrl: string,
  code: string,
  keyOf: (credentials: DeviceCredentials) => Promise<E2eKey>,
  device: NewDevice,
): Promise<Pairing> {
  const client = new RelayClient({ serverUrl, fetch: device.fetch });
  const credentials = await client.redeemPairingCode({
    code,
    deviceName: device.deviceName,
    deviceKind: device.deviceKind,
  });
  return { identity: { ...credentials, serverUrl }, key: await keyOf(credentials) };
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
