import { type DaemonToRelayMessage, LINK_CLOSE_CODES } from "@ringback/protocol";
import type { DaemonLinkHandlers } from "./daemon-links.js";
import type { RelayRuntime } from "./relay-runtime.js";
import { sendQueuedReplies, settleReply } from "./reply-delivery.js";

/** What the relay does with a link opening, a daemon's message, and a link closing. */
export function linkHandlers(runtime: RelayRuntime): DaemonLinkHandlers {
  const reportFailure = (job: string) => (error: unknown) => {
    runtime.log.line(`${job} failed: ${error instanceof Error ? error.name : "unknown error"}`);
  };
  return {
    opened: (device, close) => {
      // One link per device across instances: a newer link on another instance replaces this one.
      const lease = runtime.cluster.holdLink(device.id, () => {
        runtime.log.line(`daemon link replaced on another instance device=${device.id}`);
        close(LINK_CLOSE_CODES.replaced, "replaced by a newer link");
      });
      sendQueuedReplies(runtime, device).catch(reportFailure("sending queued replies"));
      return () => {
        lease.release().catch(reportFailure("releasing a link lease"));
      };
    },
    message: (device, message: DaemonToRelayMessage) => {
      switch (message.type) {
        case "settings-result":
          runtime.settings.resolve(device.id, message.requestId, message.sealed);
          return;
        case "settings-error":
          runtime.settings.refuse(device.id, message.requestId, message.error.code, message.error.message);
          return;
        case "reply-status":
          settleReply(runtime, device, message).catch(reportFailure("settling a reply"));
          return;
      }
    },
    closed: (device) => runtime.settings.linkClosed(device.id),
  };
}
