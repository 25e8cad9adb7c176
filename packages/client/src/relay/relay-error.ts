import { ErrorBody } from "@ringback/protocol";
import { ClientError, isClientError } from "../errors/client-error.js";

/**
 * A relay request that failed: `status` null when the relay could not be reached (the cause keeps the network
 * reason), else the HTTP status with the relay's error code. Never carries the device token.
 */
export class RelayError extends ClientError<string | null> {
  override readonly name = "RelayError";

  constructor(
    readonly status: number | null,
    code: string | null,
    message: string,
    options?: { cause?: unknown; retryAfterMs?: number | null },
  ) {
    super(code, message, options);
    this.retryAfterMs = options?.retryAfterMs ?? null;
  }

  /** How long the relay asked to wait before trying again (its `Retry-After`), when it said; null otherwise. */
  readonly retryAfterMs: number | null;

  /** A 401: the device was removed elsewhere; the app stops reconnecting and returns to the welcome page. */
  get isDeviceRemoved(): boolean {
    return this.status === 401;
  }

  /** Worth trying again later: the relay was unreachable, overloaded or failing. */
  get isRetryable(): boolean {
    return this.status === null || this.status === 429 || this.status >= 500;
  }
}

/** True for a RelayError, even one from another copy of this package. */
export function isRelayError(value: unknown): value is RelayError {
  return value instanceof RelayError || (isClientError(value) && value.name === "RelayError");
}

export async function relayErrorFrom(response: Response): Promise<RelayError> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // Not JSON (a proxy's error page): the status alone says enough.
  }
  const parsed = ErrorBody.safeParse(body);
  const options = { retryAfterMs: retryAfterMs(response.headers.get("Retry-After"), Date.now()) };
  return parsed.success
    ? new RelayError(response.status, parsed.data.error.code, parsed.data.error.message, options)
    : new RelayError(response.status, null, `The relay answered ${response.status}.`, options);
}

/** A `Retry-After` header (seconds, or an HTTP date) as milliseconds from `now`; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now: number): number | null {
  if (header === null || header.trim() === "") return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}
