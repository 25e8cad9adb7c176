import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { LOCAL_PROOF_ANSWER_LABEL, LOCAL_PROOF_REQUEST_LABEL } from "@ringback/protocol";

/** What a request's proof covers (protocol's local-proof.ts says the format). */
export interface ProvenRequestParts {
  method: string;
  port: number;
  /** The path as sent, with its query. */
  path: string;
  timestamp: number;
  nonce: string;
  body: Uint8Array;
}

function sha256Hex(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

function hmac(localKey: string, lines: readonly (string | number)[]): string {
  return createHmac("sha256", Buffer.from(localKey, "utf8"))
    .update(lines.join("\n"), "utf8")
    .digest("base64url");
}

/** The proof of a request, as the hook makes it with the local key. */
export function requestProof(localKey: string, parts: ProvenRequestParts): string {
  const { method, port, path, timestamp, nonce, body } = parts;
  return hmac(localKey, [LOCAL_PROOF_REQUEST_LABEL, method, port, path, timestamp, nonce, sha256Hex(body)]);
}

/** The proof of an answer to the request that carried `requestProofValue`. */
export function answerProof(
  localKey: string,
  requestProofValue: string,
  status: number,
  body: Uint8Array,
): string {
  return hmac(localKey, [LOCAL_PROOF_ANSWER_LABEL, requestProofValue, status, sha256Hex(body)]);
}

/** Compares two proofs in constant time (equal-length digests of both, so a length tells nothing either). */
export function isSameProof(presented: string, expected: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();
  return timingSafeEqual(digest(presented), digest(expected));
}
