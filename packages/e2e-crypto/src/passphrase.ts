import { E2eError } from "./e2e-error.js";
import { KEY_BYTES, PASSPHRASE_MIN_CODE_POINTS, PASSPHRASE_SALT, PBKDF2_ITERATIONS } from "./format.js";
import type { E2eKey } from "./key.js";
import { formatKey } from "./key.js";

const encoder = new TextEncoder();
const saltBytes = encoder.encode(PASSPHRASE_SALT);

/**
 * The key for a passphrase: NFC-normalised (a phrase typed on a phone and on a computer gives the same key),
 * at least 12 code points, then PBKDF2-SHA256 with 600000 iterations and the fixed application salt. The phrase
 * is otherwise used as typed: no trimming, no case folding. Slow on purpose.
 */
export async function deriveKeyFromPassphrase(phrase: string): Promise<E2eKey> {
  const normalised = phrase.normalize("NFC");
  // Code points, not UTF-16 units: an emoji is one character to the person typing it.
  let codePoints = 0;
  for (const _ of normalised) codePoints++;
  if (codePoints < PASSPHRASE_MIN_CODE_POINTS) {
    throw new E2eError(
      "passphrase_too_short",
      `A passphrase needs at least ${PASSPHRASE_MIN_CODE_POINTS} characters.`,
    );
  }
  const subtle = globalThis.crypto.subtle;
  const material = await subtle.importKey("raw", encoder.encode(normalised), "PBKDF2", false, ["deriveBits"]);
  const bits = await subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt: saltBytes, iterations: PBKDF2_ITERATIONS },
    material,
    KEY_BYTES * 8,
  );
  return formatKey(new Uint8Array(bits));
}
