import type { DispatchOptions } from "@ringback/protocol";
import { NoComputerError } from "../daemon/computer-choice.js";
import { hasDaemonCode, isComputerOffline, isDaemonUnreachable } from "../daemon/daemon-error.js";
import type { Availability } from "./dispatch-blocker.js";
import type { DispatchClient, DispatchDaemon } from "./dispatch-daemon.js";
import { type DispatchProblem, dispatchProblem } from "./dispatch-problem.js";

export interface AvailabilityResult {
  readonly availability: Availability;
  /** Why the computer refused or could not be asked; null when nothing went wrong. */
  readonly problem: DispatchProblem | null;
  readonly options: DispatchOptions | null;
  readonly client: DispatchClient | null;
}

/**
 * One options read (spec: the button is disabled when the computer is offline, the daemon is not running, the
 * tracker is not set up): the relay's device list says whether the computer is online; the relayed
 * `/tracker/dispatch/options` then says whether its daemon answers and has a tracker token.
 */
export async function availabilityOf(
  daemon: DispatchDaemon,
  workspaceId: string | null,
): Promise<AvailabilityResult> {
  const refused = (
    availability: Availability,
    problem: DispatchProblem | null = null,
  ): AvailabilityResult => ({
    availability,
    problem,
    options: null,
    client: null,
  });
  let client: DispatchClient;
  try {
    const computer = await daemon.computer();
    if (computer === null) return refused("no-computer");
    if (!computer.online) return refused("computer-offline");
    client = await daemon.client();
  } catch (error) {
    if (error instanceof NoComputerError) return refused("no-computer");
    return refused("relay-unreachable", dispatchProblem(error));
  }
  try {
    const options = await client.dispatchOptions(workspaceId ?? undefined);
    return { availability: "ready", problem: null, options, client };
  } catch (error) {
    if (isComputerOffline(error)) return refused("daemon-not-running");
    if (hasDaemonCode(error, "tracker_not_configured")) return refused("tracker-not-configured");
    if (isDaemonUnreachable(error)) return refused("relay-unreachable", dispatchProblem(error));
    return refused("unavailable", dispatchProblem(error));
  }
}
