import { type ReplyAccepted, type ReplyRequest, RingbackError } from "@ringback/protocol";
import { QUOTA_RETRY_AFTER_MS } from "../relay-config.js";
import type { DeviceRecord, EnqueueReplyOutcome } from "../store/store.js";
import { publish, type RelayRuntime } from "./relay-runtime.js";
import { sendReply } from "./reply-delivery.js";
import { RetryLaterError } from "./retry-later.js";
import { sweepExpired } from "./sweeper.js";

/**
 * Queues a device's sealed reply for the computer that posted the call, and sends it at once when that computer's
 * daemon is linked here. Refused when the call is unknown, the reply id is another call's, or the account's quota
 * of queued replies is used up (after the expired ones gave back their share).
 */
export async function queueReply(
  runtime: RelayRuntime,
  device: DeviceRecord,
  eventId: string,
  reply: ReplyRequest,
): Promise<ReplyAccepted> {
  let outcome = await enqueueReply(runtime, device, eventId, reply);
  if (outcome.kind === "full") {
    // Replies (and calls) past their time are expired first, so a share they still held is free.
    await sweepExpired(runtime);
    outcome = await enqueueReply(runtime, device, eventId, reply);
  }
  if (outcome.kind === "full") {
    runtime.log.line(`reply refused device=${device.id}: the account's quota of queued replies is used up`);
    throw new RetryLaterError(
      "storage_full",
      QUOTA_RETRY_AFTER_MS,
      `This account has ${outcome.usage.queuedReplies} replies queued and ${outcome.usage.sealedBytes} bytes stored on the relay, its most: wait for its computers to take them, or for them to expire.`,
    );
  }
  if (outcome.kind === "not_found") throw new RingbackError("call_not_found");
  if (outcome.kind === "conflict") {
    throw new RingbackError("invalid_request", "This replyId is already used for another call.");
  }
  if (outcome.kind === "created") {
    publish(runtime, outcome.entries);
    const isSent =
      outcome.status === "queued" &&
      sendReply(runtime, outcome.toDeviceId, { replyId: reply.replyId, eventId, sealed: reply.sealed });
    runtime.log.line(
      `reply ${outcome.status} reply=${reply.replyId} event=${eventId} to=${outcome.toDeviceId}${isSent ? " (sent)" : ""}`,
    );
  }
  return { replyId: reply.replyId, eventId, status: outcome.status };
}

function enqueueReply(
  runtime: RelayRuntime,
  device: DeviceRecord,
  eventId: string,
  reply: ReplyRequest,
): Promise<EnqueueReplyOutcome> {
  const now = runtime.clock.now();
  return runtime.store.enqueueReply({
    accountId: device.accountId,
    eventId,
    replyId: reply.replyId,
    fromDeviceId: device.id,
    sealed: reply.sealed,
    now,
    expiresAt: now + runtime.config.replyExpiryMs,
    limits: {
      queuedMax: runtime.config.queuedRepliesPerAccountMax,
      sealedBytesMax: runtime.config.sealedBytesPerAccountMax,
    },
  });
}
