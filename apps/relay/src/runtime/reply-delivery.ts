import type { DeviceRecord, QueuedReply } from "../store/store.js";
import { publish, type RelayRuntime } from "./relay-runtime.js";

/** Sends a reply to its computer's daemon if the link is up; otherwise it waits in the store for the link. */
export function sendReply(runtime: RelayRuntime, toDeviceId: string, reply: QueuedReply): boolean {
  return runtime.links.send(toDeviceId, { type: "reply", ...reply });
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
