import { createHash, randomBytes, randomInt } from "node:crypto";
import { type DeviceKind, PAIRING_CODE_DIGITS } from "@ringback/protocol";
import type { NewDevice } from "../store/store.js";

const DEVICE_TOKEN_BYTES = 32;
const ID_BYTES = 12;
const CLAIM_CODE_DIGITS = 9;

/** A new device token: 32 random bytes, base64url. Only its hash is stored. */
function newDeviceToken(): string {
  return randomBytes(DEVICE_TOKEN_BYTES).toString("base64url");
}

/** A device to store (with a new id) and its token, which goes back to the device once; the store keeps its hash. */
export function newDeviceWithToken(
  name: string,
  kind: DeviceKind,
): { device: NewDevice; deviceToken: string } {
  const deviceToken = newDeviceToken();
  return { device: { id: newId("dev"), name, kind, tokenHash: hashSecret(deviceToken) }, deviceToken };
}

/** SHA-256 of a token or code, hex: what the store keeps and looks up. */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/** A random id with a readable prefix (`acc_`, `dev_`). */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(ID_BYTES).toString("base64url")}`;
}

/** A uniformly drawn pairing code of `PAIRING_CODE_DIGITS` (12) digits. */
export function drawPairingCode(): string {
  return randomInt(0, 10 ** PAIRING_CODE_DIGITS)
    .toString()
    .padStart(PAIRING_CODE_DIGITS, "0");
}

/** A 9-digit claim code, written `123-456-789` for reading aloud. */
export function drawClaimCode(): string {
  const digits = randomInt(0, 10 ** CLAIM_CODE_DIGITS)
    .toString()
    .padStart(CLAIM_CODE_DIGITS, "0");
  return `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`;
}

/** The digits of a typed code: dashes and spaces are how people copy it, not part of it. */
export function codeDigits(typed: string): string {
  return typed.replace(/[\s-]/g, "");
}
