/** PostgreSQL's own codes for a server that is shutting down, starting up, or whose connection failed. */
const UNAVAILABLE_SQLSTATES = new Set(["57P01", "57P02", "57P03", "08000", "08001", "08003", "08006"]);
/** The driver's and the socket's codes for a connection that is gone or could not be made. */
const UNAVAILABLE_CODES = new Set([
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
]);

/**
 * Whether an error says the database is out of reach for now (PostgreSQL restarting, its connection cut), as
 * opposed to a bug: the relay then answers 503 `relay_unavailable` with `Retry-After`, which clients retry.
 */
export function isStoreUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && (UNAVAILABLE_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code));
}
