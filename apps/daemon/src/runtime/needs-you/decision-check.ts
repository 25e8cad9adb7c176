import { aad, type E2eKey, openJson } from "@ringback/e2e-crypto";
import {
  CANNOT_DECRYPT_REPLY,
  PermissionDecisionPlaintext,
  type RelayToDaemonMessage,
} from "@ringback/protocol";
import type { Admission, ReplayGuard } from "../replay-guard.js";
import type { PendingAsks } from "./pending-asks.js";

type LinkReply = Extract<RelayToDaemonMessage, { type: "reply" }>;

/** Why a decision is refused, in the plain words the device shows (sealed for it: they name the person's ask). */
export const DECISION_REFUSALS = {
  notForThisRequest: "this decision is not for this request",
  alreadyDecided: "already decided",
  stoppedWaiting: "the agent stopped waiting",
} as const;

const STAMP_REFUSALS: Record<Exclude<Admission, "accepted">, string> = {
  replayed: DECISION_REFUSALS.alreadyDecided,
  stale: "sent too long ago, or the device's clock is behind this computer's",
  future: "the device's clock is ahead of this computer's",
  full: "this computer is holding too many recent requests; decide again later",
};

export interface DecisionCheckContext {
  key: E2eKey;
  /** This computer's relay device id: a decision is sealed for it. */
  computerId: string | undefined;
  guard: ReplayGuard;
  pendingAsks: PendingAsks;
  now(): Date;
}

/** A decision that may answer its hook, or why not; `isOpened` says whether this computer's key opened it. */
export type DecisionCheck =
  | { kind: "valid"; decision: PermissionDecisionPlaintext; isOpened: true }
  | { kind: "refused"; reason: string; isPlaintextReason: boolean; isOpened: boolean };

/**
 * Checks a reply to a "needs you" call as a decision, in the design's order: it opens with this computer's
 * decision AAD for its event id, it is a decision for this very reply and event, its ask still waits, it names the
 * digest of that ask's tool input, and its stamp is fresh and never seen (the nonce is then taken). Anything else is
 * refused: nothing a relay can make or replay passes, and a refusal never answers the hook.
 */
export async function checkDecision(
  message: LinkReply,
  context: DecisionCheckContext,
): Promise<DecisionCheck> {
  const opened = context.computerId
    ? await openJson(
        context.key,
        aad.permissionDecisionTo(context.computerId, message.eventId),
        message.sealed,
      ).then(
        (value) => ({ value }),
        () => null,
      )
    : null;
  // Another key, another computer, another event, or altered: one answer for all, it carries no content.
  if (!opened)
    return { kind: "refused", reason: CANNOT_DECRYPT_REPLY, isPlaintextReason: true, isOpened: false };
  const refused = (reason: string): DecisionCheck => ({
    kind: "refused",
    reason,
    isPlaintextReason: false,
    isOpened: true,
  });
  const parsed = PermissionDecisionPlaintext.safeParse(opened.value);
  if (!parsed.success) return refused(DECISION_REFUSALS.notForThisRequest);
  const decision = parsed.data;
  if (decision.replyId !== message.replyId || decision.eventId !== message.eventId) {
    return refused(DECISION_REFUSALS.notForThisRequest);
  }
  const ask = context.pendingAsks.get(decision.eventId);
  if (!ask || ask.expiresAt.getTime() <= context.now().getTime()) {
    const ended = context.pendingAsks.ended(decision.eventId);
    return refused(ended === "decided" ? DECISION_REFUSALS.alreadyDecided : DECISION_REFUSALS.stoppedWaiting);
  }
  if (decision.toolInputDigest !== ask.toolInputDigest) return refused(DECISION_REFUSALS.notForThisRequest);
  const admission = await context.guard.admit("permission-decision", decision);
  if (admission !== "accepted") return refused(STAMP_REFUSALS[admission]);
  return { kind: "valid", decision, isOpened: true };
}
