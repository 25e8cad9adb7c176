import { randomBytes } from "node:crypto";
import { aad, type E2eKey, openJson, sealJson } from "@ringback/e2e-crypto";
import {
  type PermissionAnswer,
  type PermissionDecisionPlaintext,
  type PermissionRequestPost,
  type PermissionVerdict,
  type RelayToDaemonMessage,
  SealedReportPayload,
} from "@ringback/protocol";

type LinkReply = Extract<RelayToDaemonMessage, { type: "reply" }>;

/** A Bash ask as the hook posts it. */
export function bashAsk(
  command: string,
  overrides: Partial<PermissionRequestPost> = {},
): PermissionRequestPost {
  return {
    agent: "claude-code",
    sessionId: "session-needs-you",
    cwd: "/home/ada/projects/website",
    toolName: "Bash",
    toolInput: { command, description: "Runs it" },
    lastWords: "I need to run this to go on.",
    shortened: [],
    ...overrides,
  };
}

/** The hook's waiting request: its answer once the daemon gives one, and a way to hang up as a killed hook does. */
export interface HookAsk {
  readonly answer: Promise<{ status: number; body: PermissionAnswer }>;
  hangUp(): void;
}

/** Posts an ask to `POST /permission-requests` as the hook does (the local key, JSON) and waits. */
export function askAsTheHook(daemon: { url: string }, localKey: string, body: unknown): HookAsk {
  const controller = new AbortController();
  const answer = fetch(`${daemon.url}/permission-requests`, {
    method: "POST",
    headers: { authorization: `Bearer ${localKey}`, "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: controller.signal,
  }).then(async (response) => ({
    status: response.status,
    body: (await response.json()) as PermissionAnswer,
  }));
  // A hook hung up on purpose leaves no unhandled rejection.
  answer.catch(() => undefined);
  return { answer, hangUp: () => controller.abort() };
}

/** A "needs you" call as a device opens it. */
export async function openCall(
  key: E2eKey,
  post: { eventId: string; sealed: string },
): Promise<SealedReportPayload> {
  return SealedReportPayload.parse(await openJson(key, aad.report(post.eventId), post.sealed));
}

/** A device's decision on a call, sealed for `computerId` as the design's step 3 says, as the relay passes it on. */
export async function sealDecision(
  key: E2eKey,
  computerId: string,
  decision: { eventId: string; toolInputDigest: string; verdict: PermissionVerdict } & Partial<
    Pick<PermissionDecisionPlaintext, "replyId" | "reason" | "sentAt" | "nonce" | "deviceName">
  >,
): Promise<LinkReply> {
  const plaintext: PermissionDecisionPlaintext = {
    replyId: decision.replyId ?? `r_${randomBytes(6).toString("hex")}`,
    eventId: decision.eventId,
    toolInputDigest: decision.toolInputDigest,
    verdict: decision.verdict,
    reason: decision.reason ?? null,
    ...(decision.deviceName === undefined ? {} : { deviceName: decision.deviceName }),
    sentAt: decision.sentAt ?? new Date().toISOString(),
    nonce: decision.nonce ?? randomBytes(16).toString("base64url"),
  };
  const sealed = await sealJson(key, aad.permissionDecisionTo(computerId, decision.eventId), plaintext);
  return { type: "reply", replyId: plaintext.replyId, eventId: decision.eventId, sealed };
}

/** The reason of a failed reply status, opened as the device opens it (or the plaintext one). */
export async function failureReason(
  key: E2eKey,
  status: { replyId: string; sealedReason?: string; plaintextReason?: string },
): Promise<string | undefined> {
  if (status.plaintextReason !== undefined) return status.plaintextReason;
  if (status.sealedReason === undefined) return undefined;
  const opened = await openJson<{ reason: string }>(key, aad.replyError(status.replyId), status.sealedReason);
  return opened.reason;
}
