import type { CoreTexts } from "../i18n/texts/core.js";
import type { ReplyStatusView } from "./reply-status-view.js";

/** A reply's delivery in words, for every client (the web app's history, the terminal companion). */
export function replyDeliveryText(status: ReplyStatusView, t: CoreTexts): string {
  switch (status.kind) {
    case "queued":
      return t.replyQueued;
    case "delivered":
      return t.replyDelivered;
    case "cannot-decrypt":
      return t.replyCannotDecrypt;
    case "expired":
      return t.replyExpired;
    case "computer-removed":
      return t.replyComputerRemoved;
    case "reason-unreadable":
      return t.replyReasonUnreadable;
    case "failed":
      return t.replyFailed(status.reason);
  }
}
