import { aad, type E2eKey, openJson, sealJson } from "@ringback/e2e-crypto";
import {
  type SettingsRequestPlaintext as DaemonRequest,
  type SettingsResultPlaintext as DaemonResponse,
  type SettingsRelayRequest,
  SettingsResultPlaintext,
  StampedSettingsRequest,
} from "@ringback/protocol";
import { ClientError } from "../errors/client-error.js";
import type { RelayClient } from "./relay-client.js";
import { newRequestStamp } from "./request-stamp.js";

export type { DaemonRequest, DaemonResponse };

/** The computer's sealed answer opened but is not an answer (it has no status). */
export class DaemonRequestError extends ClientError<"invalid_answer"> {
  override readonly name = "DaemonRequestError";
  constructor(message: string, options?: ErrorOptions) {
    super("invalid_answer", message, options);
  }
}

/** A client-minted request id: 32 hex characters, safe in a URL and in associated data. */
export function newRequestId(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * `{method, path, body}` sealed for one computer: stamped with the time (`now`) and a fresh nonce, with the
 * computer's relay device id in the associated data (`ringback/v2/settings-request/<computerId>/<requestId>`), so
 * that computer runs it once and no other computer runs it at all.
 */
export async function sealSettingsRequest(
  key: E2eKey,
  computerId: string,
  request: DaemonRequest,
  now: Date = new Date(),
): Promise<SettingsRelayRequest> {
  const requestId = newRequestId();
  const plaintext = StampedSettingsRequest.parse({ ...request, ...newRequestStamp(now) });
  return { requestId, sealed: await sealJson(key, aad.settingsRequestTo(computerId, requestId), plaintext) };
}

/**
 * A daemon request relayed through the relay (the phone case): `{method, path, body}` sealed for the computer, and
 * its answer `{status, body}` sealed back. The relay sees neither, and cannot have the computer run it again. Errors
 * of the relay itself (offline computer, timeout, another key) reject with the relay's error; the daemon's own answer
 * comes back whatever its status.
 */
export async function relayDaemonRequest(
  client: RelayClient,
  key: E2eKey,
  computerId: string,
  request: DaemonRequest,
  options: { now?: () => Date } = {},
): Promise<DaemonResponse> {
  const { requestId, sealed } = await sealSettingsRequest(key, computerId, request, options.now?.());
  const result = await client.relaySettings(computerId, { requestId, sealed });
  const answer = SettingsResultPlaintext.safeParse(
    await openJson(key, aad.settingsResult(requestId), result.sealed),
  );
  if (!answer.success) throw new DaemonRequestError("The computer's answer has no status.");
  return answer.data;
}
