import { isE2eError } from "@ringback/e2e-crypto";
import { ErrorBody, type ErrorCode, isErrorCode, isRingbackError, RingbackError } from "@ringback/protocol";
import { isRelayError } from "../relay/relay-error.js";

/**
 * Turns a failed daemon call into a `RingbackError` with the protocol's code, whether the daemon refused it
 * (`{status, body}` with the error envelope) or the relay did (503 `computer_offline`, 504 `computer_timeout`,
 * 400 `undecryptable_request`, 403 `not_relayed`). A relay that cannot be reached, and a 401 (this device was
 * removed), stay `RelayError`s: the app handles those the same way everywhere.
 */
export function daemonError(cause: unknown): unknown {
  if (isRingbackError(cause)) return cause;
  if (isRelayError(cause)) {
    if (cause.status === null || cause.isDeviceRemoved) return cause;
    const code: ErrorCode = isErrorCode(cause.code) ? cause.code : codeForStatus(cause.status);
    return new RingbackError(code, cause.message, { cause });
  }
  if (isE2eError(cause)) {
    return new RingbackError(
      "undecryptable_request",
      "The computer's answer could not be opened with this device's key.",
      { cause },
    );
  }
  return cause;
}

/** The error a daemon answer other than 2xx stands for: its envelope's code, else one from the status. */
export function daemonAnswerError(status: number, body: unknown): RingbackError {
  const parsed = ErrorBody.safeParse(body);
  if (parsed.success && isErrorCode(parsed.data.error.code)) {
    return new RingbackError(parsed.data.error.code, parsed.data.error.message);
  }
  return new RingbackError(codeForStatus(status), `The computer answered ${status}.`);
}

function codeForStatus(status: number): ErrorCode {
  if (status === 401) return "unauthorized";
  if (status === 403) return "not_relayed";
  if (status === 404) return "not_found";
  if (status === 413) return "payload_too_large";
  if (status === 429) return "rate_limited";
  if (status === 503) return "computer_offline";
  if (status === 504) return "computer_timeout";
  if (status >= 500) return "internal_error";
  return "invalid_request";
}

/** The computer cannot be reached through the relay: its daemon is not connected, or did not answer in time. */
export function isComputerOffline(error: unknown): boolean {
  return isRingbackError(error) && (error.code === "computer_offline" || error.code === "computer_timeout");
}

/** Worth asking again later (the computer or the relay was unreachable), as opposed to a refusal. */
export function isDaemonUnreachable(error: unknown): boolean {
  return isComputerOffline(error) || (isRelayError(error) && error.isRetryable && !error.isDeviceRemoved);
}

export function hasDaemonCode(error: unknown, code: ErrorCode): boolean {
  return isRingbackError(error) && error.code === code;
}
