import { aad, type E2eKey, openJson, sealJson } from "@ringback/e2e-crypto";
import { PermissionDecisionPlaintext } from "@ringback/protocol";
import type { RelayedReply, ReplySettlement } from "./fake-call-relay.js";

/** The computer as the fake call relay's `settle`, and the decisions it opened. */
export interface FirstDecisionComputer {
  /** The decisions the computer opened, in order. */
  readonly opened: PermissionDecisionPlaintext[];
  settle(reply: RelayedReply): Promise<ReplySettlement>;
}

/**
 * The computer (device id `computer`) settling decisions: it opens each with `key`, takes the first for an ask and
 * refuses any other with the sealed reason "already decided".
 */
export function firstDecisionComputer(key: E2eKey): FirstDecisionComputer {
  const opened: PermissionDecisionPlaintext[] = [];
  return {
    opened,
    async settle(reply) {
      const decision = PermissionDecisionPlaintext.parse(
        await openJson(key, aad.permissionDecisionTo("computer", reply.eventId), reply.request.sealed),
      );
      const isFirst = !opened.some((earlier) => earlier.eventId === decision.eventId);
      opened.push(decision);
      if (isFirst) return { status: "delivered", sealedReason: null, plaintextReason: null };
      return {
        status: "failed",
        sealedReason: await sealJson(key, aad.replyError(reply.request.replyId), {
          reason: "already decided",
        }),
        plaintextReason: null,
      };
    },
  };
}
