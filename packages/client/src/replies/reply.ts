import { aad, type E2eKey, openJson, sealJson } from "@ringback/e2e-crypto";
import {
  ReplyErrorPlaintext,
  ReplyPlaintext,
  type ReplyRequest,
  type ReplyStatusChange,
} from "@ringback/protocol";
import type { ReplyDelivery } from "../calls/call-record.js";
import { newRequestId } from "../relay/daemon-request.js";
import { newRequestStamp } from "../relay/request-stamp.js";

/** A reply id: minted here, so a resend of the same reply is the same reply (the relay is idempotent on it). */
export function newReplyId(): string {
  return `r_${newRequestId()}`;
}

/**
 * The reply sealed for the computer that reported the call (AAD `ringback/v2/reply/<computerId>/<eventId>`), stamped
 * with the time (`now`) and a fresh nonce: the relay sees only ciphertext, and the computer runs it at most once.
 */
export async function sealReply(
  key: E2eKey,
  reply: { computerId: string; eventId: string; replyId: string; text: string },
  now: Date = new Date(),
): Promise<ReplyRequest> {
  const { computerId, eventId, replyId, text } = reply;
  const plaintext = ReplyPlaintext.parse({ replyId, text, ...newRequestStamp(now) });
  // Padded to its size bucket: the relay learns roughly how long a reply is, not its length.
  return { replyId, sealed: await sealJson(key, aad.replyTo(computerId, eventId), plaintext, { pad: true }) };
}

/**
 * A `reply-status` event as the call's history shows it: delivered, or failed with the reason the daemon sealed
 * (AAD `ringback/v1/reply-error/<replyId>`), or the relay's plaintext reason ("cannot decrypt reply", "expired").
 */
export async function deliveryFromStatus(key: E2eKey, change: ReplyStatusChange): Promise<ReplyDelivery> {
  const base = { status: change.status, at: change.at };
  if (change.sealedReason) {
    try {
      const opened = ReplyErrorPlaintext.parse(
        await openJson(key, aad.replyError(change.replyId), change.sealedReason),
      );
      return { ...base, reason: opened.reason };
    } catch {
      return { ...base, reason: null, isReasonUnreadable: true };
    }
  }
  return { ...base, reason: change.plaintextReason };
}

/** A queued status never replaces delivered or failed: events may arrive after the answer to the send. */
export function laterDelivery(existing: ReplyDelivery | undefined, next: ReplyDelivery): ReplyDelivery {
  if (existing && existing.status !== "queued" && next.status === "queued") return existing;
  return next;
}
