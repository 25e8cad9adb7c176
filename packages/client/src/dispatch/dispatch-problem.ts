import { type ErrorCode, isRingbackError } from "@ringback/protocol";
import { isRelayError } from "../relay/relay-error.js";

/** A failed dispatch request as the screen states it: the protocol code when there is one, and a message. */
export interface DispatchProblem {
  readonly code: ErrorCode | null;
  readonly message: string;
}

export function dispatchProblem(error: unknown): DispatchProblem {
  if (isRingbackError(error)) return { code: error.code, message: error.message };
  if (isRelayError(error) && error.status === null)
    return { code: null, message: "The relay could not be reached." };
  return { code: null, message: error instanceof Error ? error.message : String(error) };
}
