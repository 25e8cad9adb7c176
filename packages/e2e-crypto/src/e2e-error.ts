/** Every way the e2e format can refuse input. */
export type E2eErrorCode =
  /** Key text is not `rbk1_` + 43 base64url characters encoding 32 bytes. */
  | "invalid_key"
  /** Passphrase has fewer than 12 code points after NFC normalisation. */
  | "passphrase_too_short"
  /** The account id a version 2 passphrase key is salted with is empty or has "/" or a control character. */
  | "invalid_account_id"
  /** An id given to an AAD builder is empty or contains "/" or a control character. */
  | "invalid_aad"
  /** Sealed with a different key: the key id in the string is not ours. */
  | "key_mismatch"
  /** Not a well-formed `e2e1.` string, tampered, or sealed for other associated data. */
  | "corrupted";

/** `Symbol.for` so two loaded copies of this package recognise each other's errors. */
const E2E_ERROR_BRAND = Symbol.for("@ringback/e2e-crypto/E2eError");

/** The one error this package throws for bad input. Match on `code`, never on `message`. */
export class E2eError extends Error {
  override readonly name = "E2eError";
  readonly code: E2eErrorCode;
  readonly [E2E_ERROR_BRAND] = true;

  constructor(code: E2eErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}

/** True for an `E2eError` from any copy of this package, optionally with the given code. */
export function isE2eError(value: unknown, code?: E2eErrorCode): value is E2eError {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as { [E2E_ERROR_BRAND]?: unknown; code?: unknown };
  if (candidate[E2E_ERROR_BRAND] !== true) return false;
  return code === undefined || candidate.code === code;
}
