import { type ErrorCode, RingbackError } from "@ringback/protocol";

/** An error whose answer carries `Retry-After` (seconds, at least 1): the caller may try again then. */
export class RetryLaterError extends RingbackError {
  readonly retryAfterSeconds: number;

  constructor(code: ErrorCode, retryAfterMs: number, message?: string) {
    super(code, message);
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  }
}
