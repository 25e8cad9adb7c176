import {
  CANNOT_DECRYPT_REPLY,
  REPLY_COMPUTER_REMOVED_REASON,
  REPLY_EXPIRED_REASON,
} from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { recordFor } from "../../test/fixtures.js";
import { withStatus } from "../calls/call-record.js";
import { replyLines, replyStatusView } from "./reply-status-view.js";

const at = "2026-03-02T10:00:00.000Z";

describe("a reply's delivery status in the history", () => {
  it("is waiting until the computer settles it, then delivered", () => {
    expect(replyStatusView(undefined)).toEqual({ kind: "queued" });
    expect(replyStatusView({ status: "queued", reason: null, at })).toEqual({ kind: "queued" });
    expect(replyStatusView({ status: "delivered", reason: null, at })).toEqual({ kind: "delivered" });
  });

  it("names the relay's plaintext reasons and keeps the daemon's decrypted one", () => {
    const failed = (reason: string) => replyStatusView({ status: "failed", reason, at });
    expect(failed(CANNOT_DECRYPT_REPLY)).toEqual({ kind: "cannot-decrypt" });
    expect(failed(REPLY_EXPIRED_REASON)).toEqual({ kind: "expired" });
    expect(failed(REPLY_COMPUTER_REMOVED_REASON)).toEqual({ kind: "computer-removed" });
    expect(failed("the session no longer exists")).toEqual({
      kind: "failed",
      reason: "the session no longer exists",
    });
    expect(replyStatusView({ status: "failed", reason: null, at, isReasonUnreadable: true })).toEqual({
      kind: "reason-unreadable",
    });
  });

  it("lists a call's replies oldest first, each with its own status", () => {
    const record = withStatus(
      {
        ...recordFor({ eventId: "e1" }),
        replies: [
          { replyId: "r_2", text: "Second", sentAt: "2026-03-02T10:05:00.000Z" },
          { replyId: "r_1", text: "First", sentAt: "2026-03-02T10:01:00.000Z" },
        ],
      },
      { replyDeliveries: { r_1: { status: "delivered", reason: null, at } } },
    );
    expect(replyLines(record).map((line) => [line.reply.text, line.status.kind])).toEqual([
      ["First", "delivered"],
      ["Second", "queued"],
    ]);
  });
});
