import { aad, type E2eKey, openJson, sealJson } from "@ringback/e2e-crypto";
import {
  type DaemonToRelayMessage,
  ERROR_DESCRIPTIONS,
  errorBody,
  type RelayToDaemonMessage,
  SettingsRequestPlaintext,
  type SettingsResultPlaintext,
} from "@ringback/protocol";
import type { LastSealedMessageFile } from "../last-sealed-message.js";

type LinkSettingsRequest = Extract<RelayToDaemonMessage, { type: "settings-request" }>;

/** The local interface as the relayed request sees it: the same Hono app the daemon listens with. */
export interface LocalInterface {
  fetch(request: Request): Response | Promise<Response>;
}

export interface SettingsRequestContext {
  /** The daemon's current end-to-end key. */
  key: E2eKey;
  app: LocalInterface;
  localKey: string;
  /** The port the local interface listens on: the Host its guard accepts. */
  port: number;
  /** Where the key id of each request is kept for `ringback doctor`. */
  lastSealedMessage?: LastSealedMessageFile;
}

/**
 * Paths that never run when relayed (spec: Relayed requests): the key itself, local-only routes, and the agent
 * report intake, which only local processes may use.
 */
const LOCAL_ONLY_PREFIXES = ["/e2e", "/local", "/report"];

/**
 * Answers a relayed settings request: opens it (AAD settings-request/<requestId>), runs it through the local
 * interface itself, with the local key and a loopback Host, so every guard and handler is the local one, and
 * seals the answer (AAD settings-result/<requestId>). A request sealed with another key gets a plaintext 400
 * `undecryptable_request`; a local-only path a plaintext 403 `not_relayed`. Either way the key id it names is
 * kept for `ringback doctor`.
 */
export async function answerSettingsRequest(
  message: LinkSettingsRequest,
  context: SettingsRequestContext,
): Promise<DaemonToRelayMessage> {
  const { requestId } = message;
  const opened = await openJson(context.key, aad.settingsRequest(requestId), message.sealed).then(
    (value) => ({ value }),
    () => null,
  );
  context.lastSealedMessage?.record("settings-request", message.sealed, opened !== null);
  if (!opened) return settingsError(requestId, "undecryptable_request");
  const parsed = SettingsRequestPlaintext.safeParse(opened.value);
  const result = !parsed.success
    ? {
        status: 400,
        body: errorBody("invalid_request", "Not a relayed settings request {method, path, body}."),
      }
    : isLocalOnlyPath(parsed.data.path)
      ? null
      : await runLocally(parsed.data, context);
  if (!result) return settingsError(requestId, "not_relayed");
  const sealed = await sealJson(context.key, aad.settingsResult(requestId), result);
  return { type: "settings-result", requestId, sealed };
}

function settingsError(
  requestId: string,
  code: "undecryptable_request" | "not_relayed",
): DaemonToRelayMessage {
  return { type: "settings-error", requestId, error: { code, message: ERROR_DESCRIPTIONS[code] } };
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
