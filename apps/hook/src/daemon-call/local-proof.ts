import {
  LOCAL_PROOF_ANSWER_LABEL,
  LOCAL_PROOF_REQUEST_LABEL,
  LOCAL_PROOF_VERSION,
} from "./protocol-constants.js";

// Taken from the runtime, not `import`ed, like every built-in on the report path (see post-report.ts).
const crypto = () => process.getBuiltinModule("node:crypto");

/** A request to sign: the daemon checks the proof against what it received. */
export interface RequestToSign {
  method: string;
  port: number;
  path: string;
  body: Buffer;
}

/** A signed request's header value, and its proof, which the daemon's answer must be bound to. */
export interface SignedRequest {
  header: string;
  proof: string;
}

/** Nonce bytes: 16 random bytes, base64url. */
const NONCE_BYTES = 16;

function sha256Hex(bytes: Uint8Array): string {
  return crypto().createHash("sha256").update(bytes).digest("hex");
}

function hmac(key: string, lines: readonly (string | number)[]): string {
  return crypto()
    .createHmac("sha256", Buffer.from(key, "utf8"))
    .update(lines.join("\n"), "utf8")
    .digest("base64url");
}

/**
 * Signs a request with the local key (protocol's local-proof.ts says the format): the key itself never leaves this
 * process, and the proof holds only for this request, this port, this moment and this nonce.
 */
export function signRequest(key: string, request: RequestToSign, now = Date.now()): SignedRequest {
  const nonce = crypto().randomBytes(NONCE_BYTES).toString("base64url");
  const { method, port, path, body } = request;
  const proof = hmac(key, [LOCAL_PROOF_REQUEST_LABEL, method, port, path, now, nonce, sha256Hex(body)]);
  return { header: `${LOCAL_PROOF_VERSION}.${now}.${nonce}.${proof}`, proof };
}

/** The `Ringback-Answer-Proof` value the daemon sends with an answer of `status` and `body` to the request `proof`. */
export function answerProofHeader(key: string, proof: string, status: number, body: Uint8Array): string {
  return `${LOCAL_PROOF_VERSION}.${hmac(key, [LOCAL_PROOF_ANSWER_LABEL, proof, status, sha256Hex(body)])}`;
}

/** Whether `presented` proves that a holder of the key answered `status` and `body` to the request `proof`. */
export function isProvenAnswer(
  key: string,
  proof: string,
  status: number,
  body: Uint8Array,
  presented: string | undefined,
): boolean {
  if (presented === undefined) return false;
  const digest = (text: string) => crypto().createHash("sha256").update(text, "utf8").digest();
  return crypto().timingSafeEqual(digest(presented), digest(answerProofHeader(key, proof, status, body)));
}
