import { briefInWords, describePermissionAsk } from "@ringback/brief";
import { aad, type E2eKey, sealJson } from "@ringback/e2e-crypto";
import { createRelaySender, type SendOutcome } from "@ringback/outbox";
import { type PermissionRequestPost, SealedReportPayload } from "@ringback/protocol";
import type { z } from "zod";

/**
 * A "needs you" call is worth ringing only while the hook waits: one quick try, never the outbox's backoff. A relay
 * that does not take it by then gets the hook `failed` (the agent's own dialog follows).
 */
const PERMISSION_POST_TIMEOUT_MS = 15_000;

/** The ask as the route parsed it (`shortened` defaulted). */
type ParsedRequest = z.output<typeof PermissionRequestPost>;

export interface PermissionCall {
  eventId: string;
  request: ParsedRequest;
  toolInputDigest: string;
  now: Date;
  expiresAt: Date;
  /** The brief language: the ask is said in it when Ringback has its sentences, else in English (the meta says which). */
  language: string;
}

/** The sealed payload of the call: the ask in words as report and brief (no model), and the ask itself. */
export function permissionCallPayload(call: PermissionCall): SealedReportPayload {
  const { request } = call;
  const words = describePermissionAsk({ ...request, language: call.language });
  const occurredAt = call.now.toISOString();
  return SealedReportPayload.parse({
    report: {
      eventId: call.eventId,
      source: request.agent,
      occurredAt,
      text: words.spoken,
      sessionId: request.sessionId,
      cwd: request.cwd,
    },
    brief: briefInWords(words, words.language, call.now),
    needsYou: {
      agent: request.agent,
      toolName: request.toolName,
      toolInput: request.toolInput ?? null,
      toolInputDigest: call.toolInputDigest,
      lastWords: request.lastWords,
      shortened: request.shortened,
      expiresAt: call.expiresAt.toISOString(),
    },
  });
}

/**
 * Posts the call to the relay as any event (`POST /v1/daemon/events`), sealed with AAD `report/<eventId>` exactly
 * like a report, through the outbox's relay sender.
 */
export async function postPermissionCall(
  payload: SealedReportPayload,
  relay: { serverUrl: string; deviceToken: string; key: E2eKey },
  signal: AbortSignal,
): Promise<SendOutcome> {
  const { report, brief } = payload;
  const send = createRelaySender({
    serverUrl: relay.serverUrl,
    deviceToken: relay.deviceToken,
    seal: () => sealJson(relay.key, aad.report(report.eventId), payload, { pad: true }),
    timeoutMs: PERMISSION_POST_TIMEOUT_MS,
  });
  const entry = {
    report,
    brief,
    state: "generated" as const,
    acceptedAt: report.occurredAt,
    attempts: 0,
    nextAttemptAt: null,
  };
  return send(entry, signal);
}
