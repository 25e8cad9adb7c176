import type { Aad } from "./aad.js";
import { assertAad } from "./aad.js";
import { IV_BYTES } from "./format.js";
import type { E2eKey } from "./key.js";
import { keyMaterial } from "./key-material.js";
import { padJsonText } from "./padding.js";
import { formatSealed } from "./sealed-format.js";

export interface SealOptions {
  /** A fixed 12-byte iv, for test vectors only: reusing an iv with the same key breaks AES-GCM. */
  readonly iv?: Uint8Array;
}

export interface SealJsonOptions extends SealOptions {
  /**
   * Pads the JSON text with spaces to its size bucket (`paddedLength`), so the ciphertext's length tells the relay
   * only the bucket. Openers need nothing new: JSON parsers skip the spaces.
   */
  readonly pad?: boolean;
}

const encoder = new TextEncoder();

/** Encrypts a string with AES-256-GCM under `aad`: `e2e1.<keyId>.<iv>.<ciphertext>`. */
export async function sealString(
  key: E2eKey,
  aad: Aad,
  plaintext: string,
  options: SealOptions = {},
): Promise<string> {
  if (typeof plaintext !== "string") throw new TypeError("sealString seals a string.");
  const { cipher, keyId } = await keyMaterial(key);
  assertAad(aad);
  const iv =
    options.iv === undefined
      ? globalThis.crypto.getRandomValues(new Uint8Array(IV_BYTES))
      : copyIv(options.iv);
  const ciphertext = await cipher.encrypt(iv, encoder.encode(aad), encoder.encode(plaintext));
  return formatSealed({ keyId, iv, ciphertext });
}

/** Seals `JSON.stringify(value)`, padded when asked; `value` must be JSON-serialisable. */
export async function sealJson(
  key: E2eKey,
  aad: Aad,
  value: unknown,
  options: SealJsonOptions = {},
): Promise<string> {
  const text: string | undefined = JSON.stringify(value);
  if (text === undefined) throw new TypeError("sealJson needs a JSON-serialisable value.");
  return sealString(key, aad, options.pad ? padJsonText(text) : text, options);
}

function copyIv(iv: Uint8Array): Uint8Array<ArrayBuffer> {
  if (!(iv instanceof Uint8Array) || iv.length !== IV_BYTES) {
    throw new RangeError(`An iv is exactly ${IV_BYTES} bytes.`);
  }
  return new Uint8Array(iv);
}
