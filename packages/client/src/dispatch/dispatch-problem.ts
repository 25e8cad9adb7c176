import { type ErrorCode, isErrorCode, isRingbackError } from "@ringback/protocol";
import { isRelayError } from "../relay/relay-error.js";

/**
 * A failed dispatch request as the screen states it: the protocol code when there is one (the screen words it from
 * the code's text, in the interface language), whether the relay was out of reach, and the raw message, which is a
 * detail for the curious: the computer's or the relay's own words, never the line a person is meant to act on.
 */
export interface DispatchProblem {
  readonly code: ErrorCode | null;
  readonly isRelayUnreachable: boolean;
  readonly message: string;
}

export function dispatchProblem(error: unknown): DispatchProblem {
  if (isRingbackError(error)) return { code: error.code, isRelayUnreachable: false, message: error.message };
  if (isRelayError(error) && error.status === null)
    return { code: null, isRelayUnreachable: true, message: "The relay could not be reached." };
  if (isRelayError(error) && isErrorCode(error.code))
    return { code: error.code, isRelayUnreachable: false, message: error.message };
  return {
    code: null,
    isRelayUnreachable: false,
    message: error instanceof Error ? error.message : String(error),
  };
}
