import { z } from "zod";
import { ERROR_CODES, ERROR_DESCRIPTIONS, ERROR_STATUS, type ErrorCode } from "./error-codes.js";

const BRAND = Symbol.for("ringback.error");

/** The one error body used by the daemon and the relay: `{ "error": { "code", "message" } }`. */
export const ErrorBody = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
  }),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** An error that carries a spec code and its HTTP status. Handlers throw it; one place renders it. */
export class RingbackError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly [BRAND] = true;

  constructor(code: ErrorCode, message?: string, options?: { cause?: unknown }) {
    super(message ?? ERROR_DESCRIPTIONS[code], options);
    this.name = "RingbackError";
    this.code = code;
    this.status = ERROR_STATUS[code];
  }

  toBody(): ErrorBody {
    return { error: { code: this.code, message: this.message } };
  }
}

/** True for a RingbackError, even one thrown by another copy of this package. */
export function isRingbackError(value: unknown): value is RingbackError {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && (ERROR_CODES as string[]).includes(value);
}

/** Builds the error body for a code without throwing. */
export function errorBody(code: ErrorCode, message?: string): ErrorBody {
  return { error: { code, message: message ?? ERROR_DESCRIPTIONS[code] } };
}
