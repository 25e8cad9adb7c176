import { type E2eKey, sealFleetState } from "@ringback/e2e-crypto";
import {
  FLEET_PAD_STEP_BYTES,
  FLEET_SEALED_PLAINTEXT_MAX_BYTES,
  type FleetState,
  type FleetStatePut,
} from "@ringback/protocol";

const encoder = new TextEncoder();

/**
 * The state sealed for the account's devices (padded to FLEET_PAD_STEP_BYTES, AAD `ringback/v1/fleet/<computerId>`).
 * A state whose padded text would pass FLEET_SEALED_PLAINTEXT_MAX_BYTES (long names and headlines) loses its oldest
 * entries until it fits: the relay refuses a larger one, and the newest changes are the ones a person looks for.
 */
export async function sealedFleetBody(
  key: E2eKey,
  computerId: string,
  state: FleetState,
): Promise<FleetStatePut> {
  return { sealed: await sealFleetState(key, computerId, fittingState(state), FLEET_PAD_STEP_BYTES) };
}

function fittingState(state: FleetState): FleetState {
  let fitting = state;
  while (paddedBytes(fitting) > FLEET_SEALED_PLAINTEXT_MAX_BYTES && fitting.agents.length > 0)
    fitting = { ...fitting, agents: fitting.agents.slice(0, -1) };
  return fitting;
}

function paddedBytes(state: FleetState): number {
  const bytes = encoder.encode(JSON.stringify(state)).length;
  return Math.ceil(bytes / FLEET_PAD_STEP_BYTES) * FLEET_PAD_STEP_BYTES;
}
