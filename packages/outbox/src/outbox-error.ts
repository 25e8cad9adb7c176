export type OutboxErrorCode =
  | "corrupt_store"
  | "write_failed"
  /** The disk is full (ENOSPC, EDQUOT): nothing of this change was kept; later changes are tried again. */
  | "disk_full"
  | "closed"
  | "not_started"
  | "unknown_entry"
  | "locked";

/** The outbox's one error class: a code to branch on, the outside failure kept as `cause`. */
export class OutboxError extends Error {
  readonly code: OutboxErrorCode;

  constructor(code: OutboxErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "OutboxError";
    this.code = code;
  }
}

export function isOutboxError(value: unknown): value is OutboxError {
  return value instanceof OutboxError;
}
