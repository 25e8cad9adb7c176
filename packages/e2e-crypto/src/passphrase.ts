import { isValidId } from "./aad.js";
import { E2eError } from "./e2e-error.js";
import {
  KEY_BYTES,
  PASSPHRASE_MIN_CODE_POINTS,
  PASSPHRASE_SALT,
  PASSPHRASE_V2_SALT_PREFIX,
  PBKDF2_ITERATIONS,
} from "./format.js";
import type { E2eKey } from "./key.js";
import { formatKey } from "./key.js";
import { scryptKeyBytes } from "./scrypt.js";

const encoder = new TextEncoder();
const saltBytes = encoder.encode(PASSPHRASE_SALT);

/**
 * Throws `passphrase_too_short` unless the phrase has at least 12 code points after NFC normalisation: what both
 * derivations check first, cheap enough to run before anything that cannot be undone (spending a pairing code).
 */
export function checkPassphrase(phrase: string): void {
  normalisedPassphrase(phrase);
}

/** The phrase in NFC (a phrase typed on a phone and on a computer gives the same key), long enough. */
function normalisedPassphrase(phrase: string): string {
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
  return normalised;
}

/**
 * The key for a passphrase in an account (version 2): NFC-normalised, at least 12 code points, otherwise used as
 * typed (no trimming, no case folding); then scrypt (N = 2^17, r = 8, p = 1, 32 bytes) salted with
 * `ringback/e2e/v2/passphrase/<accountId>`. The account's salt means no dictionary computed once serves against
 * two accounts, and two accounts with the same phrase get unrelated keys (and key ids); scrypt's memory makes each
 * guess costly. Slow on purpose (about a second).
 */
export async function deriveKeyFromPassphrase(phrase: string, accountId: string): Promise<E2eKey> {
  const normalised = normalisedPassphrase(phrase);
  if (!isValidId(accountId)) {
    throw new E2eError(
      "invalid_account_id",
      'The account id must be non-empty with no "/" or control character.',
    );
  }
  const salt = encoder.encode(`${PASSPHRASE_V2_SALT_PREFIX}${accountId}`);
  return formatKey(await scryptKeyBytes(encoder.encode(normalised), salt));
}

/**
 * The key version 1 made for a passphrase: PBKDF2-SHA256, 600000 iterations, the fixed application salt, so one
 * dictionary served every account. Only to recreate a key made that way (keys already stored keep working as they
 * are); new keys come from `deriveKeyFromPassphrase`.
 */
export async function deriveKeyFromPassphraseV1(phrase: string): Promise<E2eKey> {
  const normalised = normalisedPassphrase(phrase);
  const subtle = globalThis.crypto.subtle;
  const material = await subtle.importKey("raw", encoder.encode(normalised), "PBKDF2", false, ["deriveBits"]);
  const bits = await subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt: saltBytes, iterations: PBKDF2_ITERATIONS },
    material,
    KEY_BYTES * 8,
  );
  return formatKey(new Uint8Array(bits));
}
