import { type ErrorCode, RingbackError } from "@ringback/protocol";

const TRACKER_BRAND = Symbol.for("ringback.tracker-error");

/**
 * A failed tracker call. `code` and `status` are the Ringback error code and the HTTP status the daemon
 * answers with; `trackerStatus` is the tracker's own HTTP status (null when no answer arrived); the
 * message is the tracker's (its reason, for `agent_unavailable`); `cause` keeps the network error.
 */
export class TrackerError extends RingbackError {
  readonly trackerStatus: number | null;
  readonly [TRACKER_BRAND] = true;

  constructor(
    code: ErrorCode,
    message: string,
    options: { trackerStatus?: number | null; cause?: unknown } = {},
  ) {
    super(code, message, { cause: options.cause });
    this.name = "TrackerError";
    this.trackerStatus = options.trackerStatus ?? null;
  }
}

/** True for a TrackerError, even one from another copy of this package. */
export function isTrackerError(value: unknown): value is TrackerError {
  return (
    typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[TRACKER_BRAND] === true
  );
}
