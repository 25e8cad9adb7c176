import type { ErrorCode } from "@ringback/protocol";

/** An answer outside 2xx: the tracker's status, its message and the parsed body. */
export interface TrackerFailure {
  status: number;
  message: string;
  body: unknown;
}

/** What a failure means for one operation, beyond the rules every call shares. */
export interface ErrorContext {
  /** The code for a 404 (or an `invalid … id` 400) on this path: the resource it names does not exist. */
  notFound?: ErrorCode;
  /** An operation's own reading of the tracker's answer; undefined falls back to the shared rules. */
  classify?: (failure: TrackerFailure) => ErrorCode | undefined;
  /** A sentence for an answer whose body carries no message of its own. */
  describe?: (failure: TrackerFailure) => string | undefined;
}

/**
 * The workspace middleware's answers (and upload-file's membership check). The tracker sends these
 * without a machine-readable code, so its exact texts are the only way to tell them from a 404 of the
 * resource itself.
 */
const WORKSPACE_FAILURES = new Set([
  "workspace not found",
  "invalid workspace_id",
  "invalid workspace id",
  "workspace_id or workspace_slug is required",
  "workspace_id is required",
  "not a member of this workspace",
]);

export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}

/** The tracker's message: `{"error"}`, or `reason` for refusals such as `agent_unavailable`. */
export function failureMessage(body: unknown, fallback: string): string {
  if (typeof body === "object" && body !== null) {
    const { error, reason } = body as { error?: unknown; reason?: unknown };
    if (typeof reason === "string" && reason !== "") return reason;
    if (typeof error === "string" && error !== "") return error;
  }
  return fallback;
}

/** The tracker's `code` field, when it sent one (`agent_unavailable`, `daemon_version_unsupported`). */
export function failureCode(failure: TrackerFailure): string | undefined {
  const code = (failure.body as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

export function errorCodeFor(failure: TrackerFailure, context: ErrorContext = {}): ErrorCode {
  const specific = context.classify?.(failure);
  if (specific) return specific;
  const { status } = failure;
  const message = failure.message.toLowerCase();
  if (status === 401) return "invalid_tracker_token";
  if (status >= 400 && status < 500 && WORKSPACE_FAILURES.has(message)) return "workspace_not_found";
  if (isRetryableStatus(status)) return "tracker_unavailable";
  if (context.notFound && (status === 404 || (status === 400 && /^invalid [a-z_ ]*id$/.test(message)))) {
    return context.notFound;
  }
  if (status === 404) return "not_found";
  if (status === 400 || status === 409 || status === 422) return "invalid_request";
  return "tracker_unavailable";
}
