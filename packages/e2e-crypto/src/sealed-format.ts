import { decodeBase64url, encodeBase64url } from "./base64url.js";
import { E2eError } from "./e2e-error.js";
import { IV_BYTES, SEALED_VERSION, TAG_BYTES } from "./format.js";

/** The fields of `e2e1.<keyId>.<iv>.<ciphertext>`, decoded. */
export interface SealedParts {
  readonly keyId: string;
  readonly iv: Uint8Array<ArrayBuffer>;
  /** Ciphertext with the 16-byte tag at the end. */
  readonly ciphertext: Uint8Array<ArrayBuffer>;
}

const KEY_ID_PATTERN = /^[0-9a-f]{16}$/;

/** Writes the sealed string. */
export function formatSealed(parts: SealedParts): string {
  return `${SEALED_VERSION}.${parts.keyId}.${encodeBase64url(parts.iv)}.${encodeBase64url(parts.ciphertext)}`;
}

/** Reads a sealed string strictly; anything else is `corrupted`. */
export function parseSealed(sealed: string): SealedParts {
  if (typeof sealed !== "string") throw corrupted("A sealed value is a string.");
  const fields = sealed.split(".");
  if (fields.length !== 4) throw corrupted("A sealed string has four fields separated by dots.");
  const [version, keyId, ivText, ciphertextText] = fields as [string, string, string, string];
  if (version !== SEALED_VERSION) throw corrupted(`Not an ${SEALED_VERSION} sealed string.`);
  if (!KEY_ID_PATTERN.test(keyId)) throw corrupted("The key id is not 16 lowercase hex characters.");
  const iv = decodeBase64url(ivText);
  if (iv === undefined || iv.length !== IV_BYTES)
    throw corrupted(`The iv is not ${IV_BYTES} bytes of base64url.`);
  const ciphertext = decodeBase64url(ciphertextText);
  if (ciphertext === undefined || ciphertext.length < TAG_BYTES) {
    throw corrupted("The ciphertext is not base64url of at least a tag.");
  }
  return { keyId, iv, ciphertext };
}

/**
 * The key id a sealed string names, read without a key and without opening it: tells which key a sender used
 * (the id is not a secret). A string that is not a well-formed sealed one is `corrupted`, as in `openString`.
 */
export function sealedKeyId(sealed: string): string {
  return parseSealed(sealed).keyId;
}

/**
 * The UTF-8 length of the plaintext a sealed string holds (its ciphertext without the tag), read without a key: what
 * the relay checks a padded text's size against. A string that is not a well-formed sealed one is `corrupted`.
 */
export function sealedPlaintextBytes(sealed: string): number {
  return parseSealed(sealed).ciphertext.length - TAG_BYTES;
}

function corrupted(message: string): E2eError {
  return new E2eError("corrupted", message);
}
