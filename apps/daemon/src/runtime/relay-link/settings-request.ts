import { aad, type E2eKey, openJson, sealJson } from "@ringback/e2e-crypto";
import {
  type DaemonToRelayMessage,
  ERROR_DESCRIPTIONS,
  type ErrorCode,
  errorBody,
  type RelayToDaemonMessage,
  type SettingsRequestPlaintext,
  type SettingsResultPlaintext,
  StampedSettingsRequest,
} from "@ringback/protocol";
import { relayedRequestEnv } from "../../http/relayed.js";
import type { LastSealedMessageFile } from "../keys/last-sealed-message.js";
import type { Admission, ReplayGuard } from "../replay-guard.js";

type LinkSettingsRequest = Extract<RelayToDaemonMessage, { type: "settings-request" }>;

/** The local interface as the relayed request sees it: the same Hono app the daemon listens with. */
export interface LocalInterface {
  fetch(request: Request, env: object): Response | Promise<Response>;
}

export interface SettingsRequestContext {
  /** The daemon's current end-to-end key. */
  key: E2eKey;
  /** This computer's relay device id: a request is sealed for it (its associated data names it). */
  computerId: string;
  /** Takes each request once, within the clock window. */
  guard: ReplayGuard;
  app: LocalInterface;
  localKey: string;
  /** The port the local interface listens on: the Host its guard accepts. */
  port: number;
  /** Where the key id of each request is kept for `ringback doctor`. */
  lastSealedMessage?: LastSealedMessageFile;
}

/**
 * Paths that never run when relayed (spec: Relayed requests): the key itself, local-only routes, and the agent
 * report and permission-request intakes, which only local processes (the hook) may use.
 */
const LOCAL_ONLY_PREFIXES = ["/e2e", "/local", "/report", "/permission-requests"];

/** Said of a request sealed the way apps did before requests were stamped and addressed to one computer. */
const OUTDATED_REQUEST =
  "The request was sealed by an older app, without the time, nonce and computer this computer now requires: update the app.";

/** The plaintext refusal of a request its stamp rules out, by why. */
const REFUSALS: Record<Exclude<Admission, "accepted">, { code: ErrorCode; message?: string }> = {
  replayed: { code: "replayed_request" },
  stale: { code: "stale_request" },
  future: { code: "stale_request" },
  full: {
    code: "rate_limited",
    message: "The computer is holding too many recent requests; try again later.",
  },
};

/**
 * Answers a relayed settings request: opens it (AAD `settings-request/<computerId>/<requestId>`, this computer's
 * id), takes it only if its stamp passes the replay guard (time within the window, nonce never seen), runs it
 * through the local interface itself, with the local key and a loopback Host, so every guard and handler is the
 * local one, for the device the relay says sent it, and seals the answer (AAD settings-result/<requestId>). A request sealed with another key (or for
 * another computer, or by an older app) gets a plaintext 400 `undecryptable_request`; a replay 409
 * `replayed_request`; a time outside the window 422 `stale_request`; a local-only path 403 `not_relayed`. The key
 * id it names is kept for `ringback doctor`.
 */
export async function answerSettingsRequest(
  message: LinkSettingsRequest,
  context: SettingsRequestContext,
): Promise<DaemonToRelayMessage> {
  const { requestId } = message;
  const opened = await openRequest(message, context);
  context.lastSealedMessage?.record("settings-request", message.sealed, opened !== null);
  if (!opened) return settingsError(requestId, "undecryptable_request");
  if (opened === "outdated") return settingsError(requestId, "undecryptable_request", OUTDATED_REQUEST);
  const parsed = StampedSettingsRequest.safeParse(opened.value);
  if (!parsed.success) {
    const body = errorBody(
      "invalid_request",
      "Not a relayed settings request {method, path, body, sentAt, nonce}.",
    );
    return sealResult(context, requestId, { status: 400, body });
  }
  const admission = await context.guard.admit("settings-request", parsed.data);
  if (admission !== "accepted") {
    const refusal = REFUSALS[admission];
    return settingsError(requestId, refusal.code, refusal.message);
  }
  if (isLocalOnlyPath(parsed.data.path)) return settingsError(requestId, "not_relayed");
  return sealResult(context, requestId, await runLocally(parsed.data, message.senderDeviceId, context));
}

/**
 * The request's plaintext, `"outdated"` when it opens only as an older app sealed it (no computer in its associated
 * data: never run, whatever it says), or null when it does not open with this computer's key at all.
 */
async function openRequest(
  message: LinkSettingsRequest,
  context: SettingsRequestContext,
): Promise<{ value: unknown } | "outdated" | null> {
  const opened = await openJson(
    context.key,
    aad.settingsRequestTo(context.computerId, message.requestId),
    message.sealed,
  ).then(
    (value) => ({ value }),
    () => null,
  );
  if (opened) return opened;
  const isOutdated = await openJson(context.key, aad.settingsRequest(message.requestId), message.sealed).then(
    () => true,
    () => false,
  );
  return isOutdated ? "outdated" : null;
}

async function sealResult(
  context: SettingsRequestContext,
  requestId: string,
  result: SettingsResultPlaintext,
): Promise<DaemonToRelayMessage> {
  const sealed = await sealJson(context.key, aad.settingsResult(requestId), result);
  return { type: "settings-result", requestId, sealed };
}

function settingsError(requestId: string, code: ErrorCode, message?: string): DaemonToRelayMessage {
  return {
    type: "settings-error",
    requestId,
    error: { code, message: message ?? ERROR_DESCRIPTIONS[code] },
  };
}

/**
 * True for any path that could reach a local-only route: checked on the path decoded, with backslashes and
 * repeated slashes made single slashes, dot segments resolved and case folded, so no spelling of `/e2e/key`
 * slips through (a path that cannot be decoded is refused too).
 */
export function isLocalOnlyPath(path: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path.split(/[?#]/, 1)[0] ?? "");
  } catch {
    return true;
  }
  const collapsed = `/${decoded}`.replace(/[\\/]+/g, "/").toLowerCase();
  const canonical = new URL(`http://daemon.invalid${collapsed}`).pathname;
  return LOCAL_ONLY_PREFIXES.some((prefix) => canonical === prefix || canonical.startsWith(`${prefix}/`));
}

async function runLocally(
  request: SettingsRequestPlaintext,
  senderDeviceId: string | undefined,
  context: SettingsRequestContext,
): Promise<SettingsResultPlaintext> {
  const origin = `http://127.0.0.1:${context.port}`;
  const hasBody = request.body !== undefined && request.method !== "GET";
  const headers: Record<string, string> = {
    host: `127.0.0.1:${context.port}`,
    authorization: `Bearer ${context.localKey}`,
  };
  if (hasBody) headers["content-type"] = "application/json";
  const response = await context.app.fetch(
    // Concatenated, never resolved: a path such as `//host/x` must stay a path of this origin.
    new Request(`${origin}${request.path}`, {
      method: request.method,
      headers,
      body: hasBody ? JSON.stringify(request.body) : undefined,
    }),
    relayedRequestEnv(senderDeviceId),
  );
  const text = await response.text();
  return { status: response.status, body: parseJsonOrText(text) };
}

function parseJsonOrText(text: string): unknown {
  if (text === "") return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
