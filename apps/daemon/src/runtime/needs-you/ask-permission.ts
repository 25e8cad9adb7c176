import { PERMISSION_WAIT_MS, type PermissionAnswer } from "@ringback/protocol";
import { currentBriefLanguage } from "../briefs/brief-language.js";
import type { ConfigFile } from "../files/config-file.js";
import { currentE2eKey } from "../keys/e2e-key.js";
import type { Logger } from "../logger.js";
import { readPresence } from "../presence/presence-file.js";
import { relayAddress } from "../relay-address.js";
import { endWhenNoLongerAway } from "./back-at-away-end.js";
import type { PendingAsks } from "./pending-asks.js";
import { type PermissionCall, permissionCallPayload, postPermissionCall } from "./permission-call.js";
import { mintPermissionEventId } from "./permission-event-id.js";
import { toolInputDigest } from "./tool-input-digest.js";

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
}

/**
 * Flow 2 of the design: `present` at once when the person is at the keyboard, `not-linked` without a relay
 * identity, `failed` when the call cannot be posted; otherwise rings the phones with a "needs you" call and holds
 * the answer until a valid decision, the end of the wait (`expired`) or the hook going away (`signal`).
 */
export async function askPermission(
  request: PermissionCall["request"],
  context: PermissionAskContext,
  signal: AbortSignal,
): Promise<PermissionAnswer> {
  const { config, log } = context;
  const presence = await readPresence(context.dataDir, log, context.now());
  if (!presence.away) return { outcome: "present" };
  const relay = relayAddress(config, context.env);
  if (!relay?.deviceToken || !config.config.relay?.deviceId) return { outcome: "not-linked" };
  const now = context.now();
  const waitMs = context.waitMs ?? PERMISSION_WAIT_MS;
  const eventId = mintPermissionEventId();
  const digest = toolInputDigest(request.toolInput);
  const expiresAt = new Date(now.getTime() + waitMs);
  // Held before it is posted: a phone may decide before the post's answer is back.
  const held = context.pendingAsks.hold({ eventId, toolInputDigest: digest, expiresAt }, { waitMs, signal });
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
    log(`${eventId}: ${request.agent} asks to use ${request.toolName}; ringing the phones`);
    if (presence.schedule) {
      const isAway = async () => (await readPresence(context.dataDir, undefined, context.now())).away;
      endWhenNoLongerAway(held, isAway);
    }
  }
  const answer = await held.answer;
  if (answer.outcome !== "decided") {
    log(`${eventId}: no decision (${signal.aborted ? "the hook stopped waiting" : answer.outcome})`);
  }
  return answer;
}
