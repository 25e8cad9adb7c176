import { type E2eKey, isE2eError, openFleetState as openSealedFleetState } from "@ringback/e2e-crypto";
import { FleetState, type RelayedFleetState } from "@ringback/protocol";
import { ClientError } from "../errors/client-error.js";

/** Why a computer's fleet state could not be opened; the fleet card leaves that computer's agents out. */
export type OpenFleetProblem = "key_mismatch" | "corrupted" | "invalid_payload";

/** A relayed fleet state that does not open with this device's key; `code` (and `problem`) says why. */
export class OpenFleetError extends ClientError<OpenFleetProblem> {
  override readonly name = "OpenFleetError";
  constructor(
    readonly problem: OpenFleetProblem,
    options?: { cause?: unknown },
  ) {
    super(problem, "A computer's fleet state could not be opened with this device's key.", options);
  }
}

/**
 * Opens one computer's sealed fleet state with the account key. The associated data names the computer, so a state
 * the relay passes on under another computer's id does not open.
 */
export async function openRelayedFleetState(key: E2eKey, relayed: RelayedFleetState): Promise<FleetState> {
  let value: unknown;
  try {
    value = await openSealedFleetState(key, relayed.computerId, relayed.sealed);
  } catch (cause) {
    throw new OpenFleetError(isE2eError(cause, "key_mismatch") ? "key_mismatch" : "corrupted", { cause });
  }
  const parsed = FleetState.safeParse(value);
  if (!parsed.success) throw new OpenFleetError("invalid_payload");
  return parsed.data;
}
