import { createHash, createHmac } from "node:crypto";
import { LOCAL_PROOF_ANSWER_LABEL, LOCAL_PROOF_REQUEST_LABEL, LOCAL_PROOF_VERSION } from "@ringback/protocol";

// The hook binds each request to the daemon's port and believes only an answer the daemon proved (protocol's
// local-proof.ts). A recording pass-through in front of the daemon is the user's own program holding the local key:
// it signs again for the daemon's port, and proves the daemon's answer to the hook's request.

function hmac(localKey: string, lines: readonly (string | number)[]): string {
  return createHmac("sha256", Buffer.from(localKey, "utf8"))
    .update(lines.join("\n"), "utf8")
    .digest("base64url");
}

const sha256Hex = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");

export interface ForwardedProof {
  /** The request header for the daemon, signed for its port. */
  requestHeader: string;
  /** The answer header for the hook, proving the daemon's answer to the hook's own request. */
  answerHeader(status: number, body: Uint8Array): string;
}

/** Signs a hook's request again for `daemonPort`; null when it carries no proof. */
export function forwardProof(
  header: string | undefined,
  request: { method: string; path: string; body: Uint8Array },
  daemonPort: number,
  localKey: string,
): ForwardedProof | null {
  const [version, timestamp, nonce, hookProof] = header?.split(".") ?? [];
  if (version !== LOCAL_PROOF_VERSION || !timestamp || !nonce || !hookProof) return null;
  const { method, path, body } = request;
  const lines = [LOCAL_PROOF_REQUEST_LABEL, method, daemonPort, path, timestamp, nonce, sha256Hex(body)];
  return {
    requestHeader: `${LOCAL_PROOF_VERSION}.${timestamp}.${nonce}.${hmac(localKey, lines)}`,
    answerHeader: (status, answer) =>
      `${LOCAL_PROOF_VERSION}.${hmac(localKey, [LOCAL_PROOF_ANSWER_LABEL, hookProof, status, sha256Hex(answer)])}`,
  };
}
