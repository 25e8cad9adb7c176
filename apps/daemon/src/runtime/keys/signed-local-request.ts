import { randomBytes } from "node:crypto";
import {
  LOCAL_ANSWER_PROOF_HEADER,
  LOCAL_PROOF_VERSION,
  LOCAL_REQUEST_PROOF_HEADER,
} from "@ringback/protocol";
import { answerProof, isSameProof, requestProof } from "../../http/local-proof/proof-message.js";

/** A request to the daemon on this computer's loopback. */
export interface LocalRequest {
  port: number;
  localKey: string;
  method: "GET" | "POST" | "PUT";
  path: string;
  body?: unknown;
  timeoutMs: number;
}

/** The daemon's answer; `isProven` only when it carries the daemon's proof for this request. */
export interface LocalAnswer {
  status: number;
  body: unknown;
  isProven: boolean;
}

/**
 * Asks the daemon on 127.0.0.1 signing with the local key instead of sending it (protocol's local-proof.ts), as the
 * hook does: whatever else holds the port (another user's program) never gets the key, and its answer is not proven.
 * Rejects as `fetch` does when nothing answers.
 */
export async function signedLocalRequest(request: LocalRequest): Promise<LocalAnswer> {
  const body =
    request.body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(request.body), "utf8");
  const timestamp = Date.now();
  const nonce = randomBytes(16).toString("base64url");
  const { method, port, path, localKey } = request;
  const proof = requestProof(localKey, { method, port, path, timestamp, nonce, body });
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    method,
    headers: {
      [LOCAL_REQUEST_PROOF_HEADER]: `${LOCAL_PROOF_VERSION}.${timestamp}.${nonce}.${proof}`,
      ...(request.body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(request.body === undefined ? {} : { body }),
    signal: AbortSignal.timeout(request.timeoutMs),
  });
  const answer = new Uint8Array(await response.arrayBuffer());
  const presented = response.headers.get(LOCAL_ANSWER_PROOF_HEADER) ?? "";
  const expected = `${LOCAL_PROOF_VERSION}.${answerProof(localKey, proof, response.status, answer)}`;
  let parsed: unknown = null;
  try {
    parsed = JSON.parse(new TextDecoder().decode(answer));
  } catch {
    // Not JSON: the status says enough.
  }
  return { status: response.status, body: parsed, isProven: isSameProof(presented, expected) };
}
