import type { RelayedFleetState } from "@ringback/protocol";
import type { FleetStateRecord } from "../store/store.js";
import type { RelayRuntime } from "./relay-runtime.js";

/** A kept fleet state as devices get it (SSE `fleet`, and an entry of `GET /v1/fleet`). */
export function relayedFleetState(record: FleetStateRecord): RelayedFleetState {
  return {
    computerId: record.computerId,
    sealed: record.sealed,
    receivedAt: new Date(record.receivedAt).toISOString(),
  };
}

/**
 * A state this instance just stored: to its own streams of the account at once, and to the other instances. A failed
 * announcement fails nothing: the state is kept, and the other instances' streams get it on their next connect.
 */
export function passOnFleetState(runtime: RelayRuntime, accountId: string, record: FleetStateRecord): void {
  runtime.hub.publishFleet(accountId, relayedFleetState(record));
  runtime.cluster.announceFleet(accountId, record.computerId).catch((error: unknown) => {
    runtime.log.line(
      `announcing a fleet state failed: ${error instanceof Error ? error.name : "unknown error"}`,
    );
  });
}

/** A state another instance stored: read as it is now (a newer one may have replaced it) and passed on here. */
export async function passOnStoredFleetState(
  runtime: RelayRuntime,
  accountId: string,
  computerId: string,
): Promise<void> {
  if (!runtime.hub.hasAccount(accountId)) return;
  const record = await runtime.store.fleetState(accountId, computerId);
  if (record) runtime.hub.publishFleet(accountId, relayedFleetState(record));
}

/** Announcements may have been lost: every state of every account with streams here, again (devices keep the newest). */
export async function passOnFleetStates(runtime: RelayRuntime): Promise<void> {
  for (const accountId of runtime.hub.accountIds()) {
    for (const record of await runtime.store.fleetStates(accountId)) {
      runtime.hub.publishFleet(accountId, relayedFleetState(record));
    }
  }
}
