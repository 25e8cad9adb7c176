import { isClientError } from "@ringback/client";
import { RingbackError } from "@ringback/protocol";

/**
 * Reads a pairing link or relay address with the client package's rules; one it refuses (a `PairingLinkError`) is a
 * bad request of the person who typed it: 400 `invalid_request` with the client's words, never a 500.
 */
export function refusedAsInvalidRequest<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (isClientError(error)) throw new RingbackError("invalid_request", error.message, { cause: error });
    throw error;
  }
}
