import { isE2eError } from "@ringback/e2e-crypto";
import { PairingLinkError } from "../../app/pairing/pairing-link.js";
import { isRelayError } from "../../app/relay/relay-error.js";

const RELAY_CODES: Record<string, string> = {
  invalid_pairing_code: "The pairing code is wrong, already used or expired. Ask for a new one.",
  claim_code_required: "This relay needs its claim code (printed when the relay started).",
  rate_limited: "Too many tries. Wait a few minutes and try again.",
  device_removed: "This device was removed from the account.",
  computer_offline: "The computer is not connected to the relay.",
};

const LINK_PROBLEMS: Record<PairingLinkError["problem"], string> = {
  not_a_pairing_link: "That is not a pairing link. It should contain #pair=…&key=….",
  invalid_code: "The pairing link's code is not 6 digits.",
  invalid_key: "The pairing link's key is damaged. Copy the whole link again.",
  invalid_server: "The relay address must start with http:// or https://.",
};

/** A sentence for the person in front of the screen; never a token or a key. */
export function errorText(error: unknown): string {
  if (error instanceof PairingLinkError) return LINK_PROBLEMS[error.problem];
  if (isE2eError(error, "passphrase_too_short")) return "The encryption phrase needs at least 12 characters.";
  if (isRelayError(error)) {
    if (error.status === null)
      return "The relay could not be reached. Check the address and your connection.";
    if (error.code && RELAY_CODES[error.code])
      return error.code === "claim_code_required" ? error.message : RELAY_CODES[error.code]!;
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}
