import { PERMISSION_WAIT_MS, type PermissionAnswer } from "@ringback/protocol";
import { currentBriefLanguage } from "../briefs/brief-language.js";
import type { EscalationRuntime } from "../escalation/escalation-runtime.js";
import type { ConfigFile } from "../files/config-file.js";
import { askEndedChange, askRangChange } from "../fleet/ask-changes.js";
import type { FleetRuntime } from "../fleet/fleet-runtime.js";
import { currentE2eKey } from "../keys/e2e-key.js";
import type { Logger } from "../logger.js";
import { awayNow } from "../presence/away-now.js";
import type { IdleAwayReader } from "../presence/idle-away.js";
import { relayAddress } from "../relay-address.js";
import { endWhenNoLongerAway } from "./back-at-away-end.js";
import type { PendingAsks } from "./pending-asks.js";
import { type PermissionCall, permissionCallPayload, postPermissionCall } from "./permission-call.js";
import { mintPermissionEventId } from "./permission-event-id.js";
import { isStillWaitingAfter, PERMISSION_GRACE_DEFAULT_MS } from "./ring-grace.js";
import { toolInputDigest } from "./tool-input-digest.js";
import { withdrawPermissionCall } from "./withdraw-call.js";

export interface PermissionAskContext {
  dataDir: string;
  config: ConfigFile;
  env: NodeJS.ProcessEnv;
  pendingAsks: PendingAsks;
  systemLanguage: string;
  log: Logger;
  now(): Date;
  /** How long the hook is held for a decision (PERMISSION_WAIT_MS; tests shorten it). */
  waitMs?: number;
  /** How long an ask waits before it rings (PERMISSION_GRACE_DEFAULT_MS; `RINGBACK_PERMISSION_GRACE_MS`). */
  graceMs?: number;
  /** The ladder that reaches the phone by other channels while the call is not answered. */
  escalation?: Pick<EscalationRuntime, "start">;
  /** Away by itself: the computer's input idle time past the user's threshold. */
  idleAway?: Pick<IdleAwayReader, "check">;
  /** The fleet shows an agent whose ask rang as needing the person, until the ask ends. */
  fleet?: Pick<FleetRuntime, "record">;
}

/**
 * Flow 2 of the design: `present` at once when the person is at the keyboard, `not-linked` without a relay
 * identity, `failed` when the call cannot be posted; otherwise rings the phones with a "needs you" call and holds
 * the answer until a valid decision, the end of the wait (`expired`) or the hook going away (`signal`). No needless
 * rings: an ask that ends within the grace period (the agent's own review or the person at the keyboard answered it,
 * and the agent stopped the hook) is never posted, and a call that stops waiting undecided after it rang is ended at
 * the relay, so it stops ringing on every device.
 */
export async function askPermission(
  request: PermissionCall["request"],
  context: PermissionAskContext,
  signal: AbortSignal,
): Promise<PermissionAnswer> {
  const { config, log } = context;
  const isAwayNow = () => awayNow(context.dataDir, context.now(), { idleAway: context.idleAway });
  const away = await awayNow(context.dataDir, context.now(), { log, idleAway: context.idleAway });
  if (!away.isAway) return { outcome: "present" };
  const relay = relayAddress(config, context.env);
  if (!relay?.deviceToken || !config.config.relay?.deviceId) return { outcome: "not-linked" };
  const now = context.now();
  const waitMs = context.waitMs ?? PERMISSION_WAIT_MS;
  const eventId = mintPermissionEventId();
  const digest = toolInputDigest(request.toolInput);
  const expiresAt = new Date(now.getTime() + waitMs);
  // Held before it is posted: a phone may decide before the post's answer is back.
  const held = context.pendingAsks.hold({ eventId, toolInputDigest: digest, expiresAt }, { waitMs, signal });
  const graceMs = context.graceMs ?? PERMISSION_GRACE_DEFAULT_MS;
  if (graceMs > 0)
    log(`${eventId}: ${request.agent} asks to use ${request.toolName}; it rings in ${graceMs} ms`);
  if (!(await isStillWaitingAfter(graceMs, held.answer))) {
    log(
      `${eventId}: ${request.agent}'s ask to use ${request.toolName} ended within ${graceMs} ms; it never rang`,
    );
    return held.answer;
  }
  const language = currentBriefLanguage(config.raw, context.systemLanguage).language;
  const payload = permissionCallPayload({
    eventId,
    request,
    toolInputDigest: digest,
    now,
    expiresAt,
    language,
  });
  const sent = await postPermissionCall(
    payload,
    { serverUrl: relay.serverUrl, deviceToken: relay.deviceToken, key: currentE2eKey(config) },
    signal,
  ).catch((error: unknown) => ({
    kind: "retry" as const,
    reason: error instanceof Error ? error.message : String(error),
  }));
  if (sent.kind !== "sent") {
    log(
      `${eventId}: the "needs you" call of ${request.agent} could not be posted (${"reason" in sent ? sent.reason : sent.kind})`,
    );
    held.end({ outcome: "failed" });
  } else {
    log(
      `${eventId}: ${request.agent} asks to use ${request.toolName}; ringing the phones${away.isAwayByIdle ? " (away by idle time)" : ""}`,
    );
    // Back at the keyboard after a ring mode's away time, or after input idle time: the agent's dialog shows.
    if (away.presence.schedule || away.isAwayByIdle) {
      endWhenNoLongerAway(held, async () => (await isAwayNow()).isAway);
    }
    context.fleet?.record(askRangChange(request, eventId));
    void held.answer.then(() => context.fleet?.record(askEndedChange(request, eventId)));
    // The schedule counts from when the phones started ringing (after the grace period and the post).
    const ladder = context.escalation?.start("needs-you", eventId, context.now());
    // Answered anywhere, or no longer waiting: every rung stops at once (not awaited: the hook has its answer).
    if (ladder) void held.answer.then(() => ladder.stop());
  }
  const answer = await held.answer;
  if (answer.outcome !== "decided") {
    log(`${eventId}: no decision (${signal.aborted ? "the hook stopped waiting" : answer.outcome})`);
    // Not waited for: the hook's answer never waits for the relay.
    if (sent.kind === "sent")
      void withdraw({ serverUrl: relay.serverUrl, deviceToken: relay.deviceToken }, eventId, log);
  }
  return answer;
}

/** Ends a call that no longer waits at the relay, and logs what came of it. */
async function withdraw(
  relay: { serverUrl: string; deviceToken: string },
  eventId: string,
  log: Logger,
): Promise<void> {
  const withdrawal = await withdrawPermissionCall(relay, eventId);
  switch (withdrawal.kind) {
    case "withdrawn":
      return log(`${eventId}: the call no longer waits; it stopped ringing on every device`);
    case "already-over":
      return log(`${eventId}: the call no longer waits; it had already ended`);
    case "failed":
      return log(
        `${eventId}: the call no longer waits, but the relay could not be told (${withdrawal.reason})`,
      );
  }
}
