import { LINK_CLOSE_CODES } from "@ringback/protocol";
import type { ClusterHandlers } from "../cluster/relay-cluster.js";
import { passOnFleetStates, passOnStoredFleetState } from "./fleet-states.js";
import type { RelayRuntime } from "./relay-runtime.js";
import { sendQueuedReply } from "./reply-delivery.js";

/** What this instance does with what the other instances on the same database announce. */
export function clusterHandlers(runtime: RelayRuntime): ClusterHandlers {
  const reportFailure = (job: string) => (error: unknown) => {
    runtime.log.line(`${job} failed: ${error instanceof Error ? error.name : "unknown error"}`);
  };
  return {
    entriesCommitted: (accountId, seq) => runtime.hub.entriesCommitted(accountId, seq),
    deviceRemoved: (deviceId) => {
      runtime.hub.closeDevice(deviceId);
      runtime.links.close(deviceId, LINK_CLOSE_CODES.deviceRemoved, "device removed");
    },
    replyQueued: (deviceId, replyId) => {
      sendQueuedReply(runtime, deviceId, replyId).catch(reportFailure("sending a reply"));
    },
    settingsRequested: (deviceId, requestId, sealed, stamp) => {
      runtime.settings
        .answerRelayed(deviceId, requestId, sealed, stamp)
        .catch(reportFailure("answering a relayed settings request"));
    },
    fleetChanged: (accountId, computerId) => {
      passOnStoredFleetState(runtime, accountId, computerId).catch(reportFailure("passing on a fleet state"));
    },
    resync: () => {
      runtime.hub.resync();
      passOnFleetStates(runtime).catch(reportFailure("passing on fleet states"));
    },
  };
}
