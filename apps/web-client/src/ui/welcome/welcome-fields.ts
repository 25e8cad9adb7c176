import { parsePairingLink } from "@ringback/client";
import type { DevicePairing } from "../../app/pairing/device-pairing.js";

/** The welcome page's three forms, each a way to pair this device. */
export type WelcomeForm = "link" | "code" | "create";

/** What the person typed on the welcome page; one record, so each form reads the fields it needs. */
export interface WelcomeFields {
  readonly deviceName: string;
  readonly link: string;
  readonly serverUrl: string;
  readonly code: string;
  readonly phrase: string;
  readonly claimCode: string;
  readonly newPhrase: string;
}

export type WelcomeField = keyof WelcomeFields;

/** The fields as the page opens: the device's default name and relay, and the pairing link it was opened from. */
export function initialWelcomeFields(pairing: DevicePairing, pairingLink: string | null): WelcomeFields {
  return {
    deviceName: pairing.defaultDeviceName,
    link: pairingLink ?? "",
    serverUrl: pairing.defaultServerUrl,
    code: "",
    phrase: "",
    claimCode: "",
    newPhrase: "",
  };
}

/** What each form's submit does with the fields. */
export const WELCOME_ACTIONS: Record<
  WelcomeForm,
  (pairing: DevicePairing, fields: WelcomeFields) => Promise<void>
> = {
  link: (pairing, fields) => pairing.joinWithLink(fields.link, fields.deviceName),
  code: (pairing, { serverUrl, code, phrase, deviceName }) =>
    pairing.joinWithCode({ serverUrl, code, phrase }, deviceName),
  create: (pairing, { serverUrl, claimCode, newPhrase, deviceName }) =>
    pairing.createAccount(
      { serverUrl, ...(claimCode ? { claimCode } : {}), ...(newPhrase ? { phrase: newPhrase } : {}) },
      deviceName,
    ),
};

/** The relay a pairing link names, as a person reads it (its host), or null for a link that cannot be read. */
export function relayOfLink(link: string): string | null {
  try {
    return new URL(parsePairingLink(link).serverUrl).host;
  } catch {
    return null;
  }
}
