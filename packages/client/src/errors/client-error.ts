/** `Symbol.for` so two loaded copies of this package recognise each other's errors. */
const CLIENT_ERROR_BRAND = Symbol.for("@ringback/client/ClientError");

/**
 * The one base of the errors this package throws, as `RingbackError` is the server side's: `code` is the word to
 * branch on (never the message), each subclass names its own codes, and the brand lets `isClientError` recognise an
 * error thrown by another loaded copy of the package. A `RelayError`'s code is the relay's own (null when the relay
 * was not reached or answered without one).
 */
export abstract class ClientError<Code extends string | null = string | null> extends Error {
  readonly code: Code;
  readonly [CLIENT_ERROR_BRAND] = true;

  constructor(code: Code, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
  }
}

/** True for any of this package's errors, even one from another copy of it; with `code`, only for that code. */
export function isClientError(value: unknown, code?: string): value is ClientError {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as { [CLIENT_ERROR_BRAND]?: unknown; code?: unknown };
  if (candidate[CLIENT_ERROR_BRAND] !== true) return false;
  return code === undefined || candidate.code === code;
}
