import { decodeBase64url, encodeBase64url } from "./base64url.js";
import { E2eError } from "./e2e-error.js";
import { KEY_BYTES, KEY_PREFIX } from "./format.js";

declare const e2eKeyBrand: unique symbol;

/**
 * An e2e key in its text form, `rbk1_` + 43 base64url characters (32 bytes). A plain string at run time, so it
 * can be stored, posted to a worker or put in a QR code as is; the brand says it has been validated.
 */
export type E2eKey = string & { readonly [e2eKeyBrand]: true };

// Exactly 43 characters of the base64url alphabet; canonical trailing bits are checked by the decoder.
const KEY_TEXT_PATTERN = /^rbk1_[A-Za-z0-9_-]{43}$/;

/** A new random key (32 bytes from the platform's CSPRNG). */
export function generateKey(): E2eKey {
  return formatKey(globalThis.crypto.getRandomValues(new Uint8Array(KEY_BYTES)));
}

/** Writes 32 raw key bytes in the text form. */
export function formatKey(bytes: Uint8Array): E2eKey {
  if (!(bytes instanceof Uint8Array) || bytes.length !== KEY_BYTES) {
    throw new E2eError("invalid_key", `A key is exactly ${KEY_BYTES} bytes.`);
  }
  return (KEY_PREFIX + encodeBase64url(bytes)) as E2eKey;
}

/** Validates a key's text form exactly as written: no trimming, no other prefix, no padding. */
export function parseKey(text: string): E2eKey {
  keyBytes(text as E2eKey);
  return text as E2eKey;
}

/** A fresh copy of the 32 raw bytes of a key; throws `invalid_key` for anything but a valid key text. */
export function keyBytes(key: E2eKey): Uint8Array<ArrayBuffer> {
  // The message never repeats the text: it may be a real key with one typo.
  if (typeof key !== "string" || !KEY_TEXT_PATTERN.test(key)) {
    throw new E2eError("invalid_key", `A key is "${KEY_PREFIX}" followed by 43 base64url characters.`);
  }
  const bytes = decodeBase64url(key.slice(KEY_PREFIX.length));
  if (bytes === undefined || bytes.length !== KEY_BYTES) {
    throw new E2eError("invalid_key", "The key's last character is not a canonical base64url ending.");
  }
  return bytes;
}
