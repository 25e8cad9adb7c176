import type { DeviceRecord, QueuedReply } from "../store/store.js";
import { publish, type RelayRuntime } from "./relay-runtime.js";

/**
 * Sends a reply to its computer's daemon if the link is here; otherwise the other instances are told (the one
 * holding the link sends it), and it waits in the store for the next link in any case.
 */
export function sendReply(runtime: RelayRuntime, toDeviceId: string, reply: QueuedReply): boolean {
  if (runtime.links.send(toDeviceId, { type: "reply", ...reply })) return true;
  runtime.cluster.announceReply(toDeviceId, reply.replyId).catch((error: unknown) => {
    runtime.log.line(`announcing a reply failed: ${error instanceof Error ? error.name : "unknown error"}`);
  });
  return false;
}

/** Another instance queued a reply for a computer: sent if its link is on this instance. */
export async function sendQueuedReply(
  runtime: RelayRuntime,
  deviceId: string,
  replyId: string,
): Promise<void> {
  if (!runtime.links.isOnline(deviceId)) return;
  const reply = (await runtime.store.queuedReplies(deviceId)).find((queued) => queued.replyId === replyId);
  if (reply && runtime.links.send(deviceId, { type: "reply", ...reply })) {
    runtime.log.line(`reply sent reply=${replyId} device=${deviceId}`);
  }
}

/**
 * A computer's link opened: every reply still queued for it goes out again. A reply sent before a drop but never
 * settled is sent again too; the daemon runs each reply id at most once.
 */
export async function sendQueuedReplies(runtime: RelayRuntime, device: DeviceRecord): Promise<void> {
  const queued = await runtime.store.queuedReplies(device.id);
  for (const reply of queued) {
    if (!sendReply(runtime, device.id, reply)) return;
  }
  if (queued.length > 0) runtime.log.line(`sent ${queued.length} queued replies device=${device.id}`);
}

/** The daemon said how a reply ended: recorded once, then told to every device. */
export async function settleReply(
  runtime: RelayRuntime,
  device: DeviceRecord,
  input: { replyId: string; status: "delivered" | "failed"; sealedReason?: string; plaintextReason?: string },
): Promise<void> {
  const entry = await runtime.store.settleReply({
    deviceId: device.id,
    replyId: input.replyId,
    status: input.status,
    sealedReason: input.sealedReason ?? null,
    plaintextReason: input.plaintextReason ?? null,
    now: runtime.clock.now(),
  });
  if (!entry) return;
  publish(runtime, [entry]);
  runtime.log.line(`reply ${input.status} reply=${input.replyId} device=${device.id} seq=${entry.seq}`);
}
