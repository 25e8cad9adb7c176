import {
  CANNOT_DECRYPT_REPLY,
  REPLY_COMPUTER_REMOVED_REASON,
  REPLY_EXPIRED_REASON,
} from "@ringback/protocol";
import type { CallRecord, ReplyDelivery, SentReply } from "../calls/call-record.js";

/** How a reply's delivery shows in the call's history record. */
export type ReplyStatusView =
  | { readonly kind: "queued" }
  | { readonly kind: "delivered" }
  | { readonly kind: "cannot-decrypt" }
  | { readonly kind: "expired" }
  | { readonly kind: "computer-removed" }
  | { readonly kind: "reason-unreadable" }
  | { readonly kind: "failed"; readonly reason: string };

export function replyStatusView(delivery: ReplyDelivery | undefined): ReplyStatusView {
  if (!delivery || delivery.status === "queued") return { kind: "queued" };
  if (delivery.status === "delivered") return { kind: "delivered" };
  if (delivery.isReasonUnreadable) return { kind: "reason-unreadable" };
  const reason = delivery.reason ?? "";
  if (reason === CANNOT_DECRYPT_REPLY) return { kind: "cannot-decrypt" };
  if (reason === REPLY_EXPIRED_REASON) return { kind: "expired" };
  if (reason === REPLY_COMPUTER_REMOVED_REASON) return { kind: "computer-removed" };
  return { kind: "failed", reason };
}

export interface ReplyLine {
  readonly reply: SentReply;
  readonly status: ReplyStatusView;
}

/** The replies of a call, oldest first, each with its delivery status. */
export function replyLines(record: CallRecord): ReplyLine[] {
  return [...record.replies]
    .sort((a, b) => a.sentAt.localeCompare(b.sentAt))
    .map((reply) => ({ reply, status: replyStatusView(record.status.replyDeliveries[reply.replyId]) }));
}
