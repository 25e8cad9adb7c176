import { aad, type E2eKey, openJson, sealJson } from "@ringback/e2e-crypto";
import {
  type SettingsRequestPlaintext as DaemonRequest,
  type SettingsResultPlaintext as DaemonResponse,
  SettingsRequestPlaintext,
  SettingsResultPlaintext,
} from "@ringback/protocol";
import type { RelayClient } from "./relay-client.js";

export type { DaemonRequest, DaemonResponse };

export class DaemonRequestError extends Error {
  override readonly name = "DaemonRequestError";
}

/** A client-minted request id: 32 hex characters, safe in a URL and in associated data. */
export function newRequestId(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * A daemon request relayed through the relay (the phone case): `{method, path, body}` sealed for the computer, and
 * its answer `{status, body}` sealed back. The relay sees neither. Errors of the relay itself (offline computer,
 * timeout, another key) reject with the relay's error; the daemon's own answer comes back whatever its status.
 */
export async function relayDaemonRequest(
  client: RelayClient,
  key: E2eKey,
  computerId: string,
  request: DaemonRequest,
): Promise<DaemonResponse> {
  const requestId = newRequestId();
  const sealed = await sealJson(key, aad.settingsRequest(requestId), SettingsRequestPlaintext.parse(request));
  const result = await client.relaySettings(computerId, { requestId, sealed });
  const answer = SettingsResultPlaintext.safeParse(
    await openJson(key, aad.settingsResult(requestId), result.sealed),
  );
  if (!answer.success) throw new DaemonRequestError("The computer's answer has no status.");
  return answer.data;
}
