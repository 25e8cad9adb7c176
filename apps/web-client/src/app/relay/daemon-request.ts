import { aad, type E2eKey, openJson, sealJson } from "@ringback/e2e-crypto";
import type { RelayClient } from "./relay-client.js";

/**
 * A daemon request relayed through the relay (the phone case): `{method, path, body}` sealed for the computer, and
 * its answer `{status, body}` sealed back. The relay sees neither.
 *
 * The plaintext shapes are not in @ringback/protocol yet (the relay schema names the request's fields in a comment
 * only); they belong there once the daemon's relayed handler exists.
 */
export interface DaemonRequest {
  readonly method: "GET" | "POST" | "PUT" | "DELETE";
  readonly path: string;
  readonly body?: unknown;
}

export interface DaemonResponse {
  readonly status: number;
  readonly body: unknown;
}

export class DaemonRequestError extends Error {
  override readonly name = "DaemonRequestError";
}

function newRequestId(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

export async function relayDaemonRequest(
  client: RelayClient,
  key: E2eKey,
  computerId: string,
  request: DaemonRequest,
): Promise<DaemonResponse> {
  const requestId = newRequestId();
  const sealed = await sealJson(key, aad.settingsRequest(requestId), request);
  const result = await client.relaySettings(computerId, { requestId, sealed });
  const answer = await openJson<Partial<DaemonResponse>>(key, aad.settingsResult(requestId), result.sealed);
  if (typeof answer?.status !== "number")
    throw new DaemonRequestError("The computer's answer has no status.");
  return { status: answer.status, body: answer.body };
}
