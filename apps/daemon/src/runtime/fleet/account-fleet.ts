import { readListedName } from "@ringback/client";
import { type E2eKey, isE2eError, openFleetState } from "@ringback/e2e-crypto";
import { FleetState } from "@ringback/protocol";
import { RelayApi } from "../relay-link/relay-api.js";

/** One computer of the account and what its agents are doing, as a device reads it. */
export interface ComputerFleet {
  computerId: string;
  /** The computer's name, opened with the key; null when it does not open. */
  name: string | null;
  /** Its latest state; null when it does not open with this key (the text says so). */
  state: FleetState | null;
}

/**
 * Every computer's fleet state in the account (`GET /v1/fleet`), each opened with the account's key and named from
 * the device list, in the relay's order. A state that does not open is listed with `state: null`.
 */
export async function readAccountFleet(relay: {
  serverUrl: string;
  deviceToken: string;
  key: E2eKey;
}): Promise<ComputerFleet[]> {
  const api = new RelayApi(relay.serverUrl);
  const [fleet, devices] = await Promise.all([
    api.fleet(relay.deviceToken),
    api.listDevices(relay.deviceToken),
  ]);
  return Promise.all(
    fleet.computers.map(async ({ computerId, sealed }) => {
      const device = devices.devices.find((candidate) => candidate.id === computerId);
      const name = device ? await readListedName(relay.key, device.name, device.kind) : null;
      return { computerId, name, state: await openedState(relay.key, computerId, sealed) };
    }),
  );
}

async function openedState(key: E2eKey, computerId: string, sealed: string): Promise<FleetState | null> {
  try {
    const parsed = FleetState.safeParse(await openFleetState(key, computerId, sealed));
    return parsed.success ? parsed.data : null;
  } catch (error) {
    if (isE2eError(error)) return null;
    throw error;
  }
}
