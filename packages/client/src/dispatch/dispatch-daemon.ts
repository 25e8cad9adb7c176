import type { DaemonAccess } from "../controller/daemon-access.js";
import type { DaemonClient } from "../daemon/daemon-client.js";

/** The daemon requests the dispatch screen makes (all relayed, sealed, to the chosen computer). */
export type DispatchClient = Pick<
  DaemonClient,
  | "dispatchOptions"
  | "dispatchIssues"
  | "dispatchStatuses"
  | "upload"
  | "createDispatch"
  | "lookupDispatch"
  | "cancelDispatch"
  | "listDispatches"
  | "trackerWorkspaces"
>;

/** What the dispatch screen needs to know of the chosen computer, and how to reach its daemon. */
export interface DispatchDaemon {
  /** The chosen computer as the relay lists it now; null when the account has no computer. */
  computer(): Promise<{ readonly online: boolean } | null>;
  /** Rejects with NoComputerError when the account has no computer. */
  client(): Promise<DispatchClient>;
  /** The watched workspaces, read again from the daemon when it answers, else as last known. */
  watchedWorkspaces(): Promise<readonly string[]>;
}

export function dispatchDaemonOf(access: DaemonAccess): DispatchDaemon {
  return {
    async computer() {
      const computers = await access.refreshComputers();
      return computers.find((computer) => computer.id === access.view.computerId) ?? null;
    },
    client: () => access.client(),
    async watchedWorkspaces() {
      // Not set up or offline: the screen keeps what the device knew.
      await access.refreshWatchedWorkspaces().catch(() => undefined);
      return access.view.watchedWorkspaces;
    },
  };
}
