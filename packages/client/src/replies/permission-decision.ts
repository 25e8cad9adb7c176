import { aad, type E2eKey, sealJson } from "@ringback/e2e-crypto";
import { PermissionDecisionPlaintext, type PermissionVerdict, type ReplyRequest } from "@ringback/protocol";
import { newRequestStamp } from "../relay/request-stamp.js";

export interface PermissionDecision {
  /** The computer that raised the call (the relay's `fromDeviceId`): only its daemon can open the decision. */
  readonly computerId: string;
  readonly eventId: string;
  readonly replyId: string;
  /** Copied from the ask: the decision can only allow that exact tool input. */
  readonly toolInputDigest: string;
  readonly verdict: PermissionVerdict;
  /** A deny's reason for the agent; dropped for an allow. */
  readonly reason: string | null;
  /** This device's own name, sealed with the decision so the computer can say where it was decided. */
  readonly deviceName?: string;
}

/**
 * A decision on a "needs you" call, sealed for the computer that raised it (AAD
 * `ringback/v2/permission-decision/<computerId>/<eventId>`) and stamped like a reply, so the relay carries it as one
 * more reply it cannot read, and the daemon takes it at most once, for that ask only.
 */
export async function sealPermissionDecision(
  key: E2eKey,
  decision: PermissionDecision,
  now: Date = new Date(),
): Promise<ReplyRequest> {
  const { computerId, eventId, replyId, toolInputDigest, verdict } = decision;
  const reason = verdict === "deny" ? decision.reason?.trim() || null : null;
  const deviceName = decision.deviceName?.trim();
  const plaintext = PermissionDecisionPlaintext.parse({
    replyId,
    eventId,
    toolInputDigest,
    verdict,
    reason,
    ...(deviceName ? { deviceName } : {}),
    ...newRequestStamp(now),
  });
  // Padded: an allow and a short deny are sealed to one length, and the relay cannot tell them apart.
  const sealed = await sealJson(key, aad.permissionDecisionTo(computerId, eventId), plaintext, { pad: true });
  return { replyId, sealed };
}
