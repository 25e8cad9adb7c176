import { z } from "zod";
import { PAIRING_CODE_DIGITS, PASSPHRASE_MIN_CHARS } from "../limits.js";

/** Where the daemon's key came from. */
export const E2eKeySource = z.enum(["generated", "random", "passphrase", "imported"]);
export type E2eKeySource = z.infer<typeof E2eKeySource>;

/** A key in the `rbk1_` text form: 32 bytes as unpadded base64url. */
export const E2eKeyText = z.string().regex(/^rbk1_[A-Za-z0-9_-]{43}$/, "must be an rbk1_ key");

/** `GET /e2e/key` response, and the `e2e` section of daemon.json (without keyId, which is derived). */
export const E2eKeyRecord = z.object({
  key: E2eKeyText,
  keyId: z.string().regex(/^[0-9a-f]{16}$/),
  source: E2eKeySource,
  updatedAt: z.string(),
});
export type E2eKeyRecord = z.infer<typeof E2eKeyRecord>;

/**
 * `PUT /e2e/key` body: exactly one of a passphrase, a key (the older form), or a new random key.
 * The passphrase length is checked after NFC normalisation, in code points.
 */
export const PutE2eKeyRequest = z.union([
  z.object({ passphrase: z.string() }).strict(),
  z.object({ key: z.string() }).strict(),
  z.object({ random: z.literal(true) }).strict(),
]);
export type PutE2eKeyRequest = z.infer<typeof PutE2eKeyRequest>;

export function isPassphraseLongEnough(phrase: string): boolean {
  return [...phrase.normalize("NFC")].length >= PASSPHRASE_MIN_CHARS;
}

/** `PUT /e2e/key` response: the new key's id and source (never the key itself over the wire twice). */
export const PutE2eKeyResponse = z.object({ keyId: z.string(), source: E2eKeySource, updatedAt: z.string() });
export type PutE2eKeyResponse = z.infer<typeof PutE2eKeyResponse>;

/** `POST /local/pairing` body (optional): a device name for the desktop app that joins. */
export const LocalPairingRequest = z.object({ deviceName: z.string().min(1).max(100).optional() }).strict();
export type LocalPairingRequest = z.infer<typeof LocalPairingRequest>;

/** `POST /local/pairing` response and what `ringback pair` prints. */
export const PairingResult = z.object({
  serverUrl: z.string(),
  code: z.string().regex(new RegExp(`^[0-9]{${PAIRING_CODE_DIGITS}}$`)),
  key: E2eKeyText,
  expiresAt: z.string(),
  link: z.string(),
});
export type PairingResult = z.infer<typeof PairingResult>;
