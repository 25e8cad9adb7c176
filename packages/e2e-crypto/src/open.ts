import type { Aad } from "./aad.js";
import { assertAad } from "./aad.js";
import { E2eError } from "./e2e-error.js";
import type { E2eKey } from "./key.js";
import { keyMaterial } from "./key-material.js";
import { parseSealed } from "./sealed-format.js";

const encoder = new TextEncoder();
// fatal: bytes that are not UTF-8 are an error, not U+FFFD.
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * Decrypts a sealed string. `key_mismatch` when it was sealed with another key; `corrupted` when it is
 * malformed, was altered, or was sealed for other associated data.
 */
export async function openString(key: E2eKey, aad: Aad, sealed: string): Promise<string> {
  const { cipher, keyId } = await keyMaterial(key);
  assertAad(aad);
  const parts = parseSealed(sealed);
  if (parts.keyId !== keyId) {
    throw new E2eError("key_mismatch", "Sealed with a different key.");
  }
  let plaintext: Uint8Array;
  try {
    plaintext = await cipher.decrypt(parts.iv, encoder.encode(aad), parts.ciphertext);
  } catch (cause) {
    throw new E2eError("corrupted", "The sealed data was altered or sealed for other associated data.", {
      cause,
    });
  }
  try {
    return decoder.decode(plaintext);
  } catch (cause) {
    throw new E2eError("corrupted", "The plaintext is not UTF-8.", { cause });
  }
}

/** Opens a string sealed by `sealJson` and parses it; not JSON is `corrupted`. The shape is not checked. */
export async function openJson<T = unknown>(key: E2eKey, aad: Aad, sealed: string): Promise<T> {
  const text = await openString(key, aad, sealed);
  try {
    return JSON.parse(text) as T;
  } catch (cause) {
    throw new E2eError("corrupted", "The plaintext is not JSON.", { cause });
  }
}
