import { LOCAL_PROOF_NONCE_PATTERN, LOCAL_PROOF_VERSION, LOCAL_PROOF_WINDOW_MS } from "@ringback/protocol";
import { isSameProof, requestProof } from "./proof-message.js";
import type { SeenNonces } from "./seen-nonces.js";

/** Why a signed request is refused, in words a person reads in the daemon's log. */
const REFUSALS = {
  malformed: "its proof header is not v1.<timestamp>.<nonce>.<proof>",
  wrong: "its proof was not made with this daemon's local key for this request",
  stale: "its time is outside the window",
  "before-start": "it was signed before this daemon started",
  reused: "its nonce was used before",
} as const;

type RequestProofRefusal = keyof typeof REFUSALS;

/** How a signed request's proof checked out: valid (with the proof the answer is bound to), or refused. */
export type RequestProofCheck =
  | { valid: true; proof: string }
  | { valid: false; refusal: RequestProofRefusal; reason: (typeof REFUSALS)[RequestProofRefusal] };

/** The request as it arrived, and what this daemon knows. */
export interface RequestProofFacts {
  header: string;
  method: string;
  port: number;
  path: string;
  body: Uint8Array;
  localKey: string;
  now: number;
  /** When this daemon began to take requests: nothing signed earlier was meant for it. */
  startedAt: number;
  seenNonces: SeenNonces;
}

const HEADER = /^([^.]+)\.(\d{1,15})\.([^.]+)\.([A-Za-z0-9_-]{43})$/;

function refused(refusal: RequestProofRefusal): RequestProofCheck {
  return { valid: false, refusal, reason: REFUSALS[refusal] };
}

/**
 * Checks a `Ringback-Request-Proof`: the proof first (so nothing about time or nonces is told to a caller without
 * the key), then the time window, the daemon's start, and last the nonce, recorded only for a request that passed.
 */
export function checkRequestProof(facts: RequestProofFacts): RequestProofCheck {
  const match = HEADER.exec(facts.header);
  const [, version, timestampText, nonce, presented] = match ?? [];
  if (version !== LOCAL_PROOF_VERSION || !nonce || !presented || !LOCAL_PROOF_NONCE_PATTERN.test(nonce))
    return refused("malformed");
  const timestamp = Number(timestampText);
  const expected = requestProof(facts.localKey, { ...facts, timestamp, nonce });
  if (!isSameProof(presented, expected)) return refused("wrong");
  if (Math.abs(facts.now - timestamp) > LOCAL_PROOF_WINDOW_MS) return refused("stale");
  if (timestamp < facts.startedAt) return refused("before-start");
  if (!facts.seenNonces.isFirstUse(nonce, timestamp + LOCAL_PROOF_WINDOW_MS, facts.now))
    return refused("reused");
  return { valid: true, proof: presented };
}
