import { randomBytes } from "node:crypto";
import { LOCAL_PROOF_WINDOW_MS } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { requestProof } from "./proof-message.js";
import { checkRequestProof, type RequestProofFacts } from "./request-proof-check.js";
import { SeenNonces } from "./seen-nonces.js";

const LOCAL_KEY = "the-daemons-local-key";
const NOW = 1_800_000_000_000;
const BODY = new TextEncoder().encode('{"text":"done"}');

/** A request signed as the hook signs it, and the facts the daemon checks it with; `change` alters either. */
function signed(change: { signedWith?: string; timestamp?: number; nonce?: string } = {}) {
  const nonce = change.nonce ?? randomBytes(16).toString("base64url");
  const timestamp = change.timestamp ?? NOW;
  const parts = { method: "POST", port: 8790, path: "/report", timestamp, nonce, body: BODY };
  const proof = requestProof(change.signedWith ?? LOCAL_KEY, parts);
  const facts: RequestProofFacts = {
    header: `v1.${timestamp}.${nonce}.${proof}`,
    method: "POST",
    port: 8790,
    path: "/report",
    body: BODY,
    localKey: LOCAL_KEY,
    now: NOW,
    startedAt: NOW - 60_000,
    seenNonces: new SeenNonces(),
  };
  return { facts, proof };
}

describe("checkRequestProof", () => {
  it("takes a request signed with the local key, and binds the answer to its proof", () => {
    const { facts, proof } = signed();
    expect(checkRequestProof(facts)).toEqual({ valid: true, proof });
  });

  it("refuses a copy of a request it took (its nonce), and takes the next one", () => {
    const { facts } = signed();
    expect(checkRequestProof(facts).valid).toBe(true);
    expect(checkRequestProof(facts)).toMatchObject({ valid: false, refusal: "reused" });
    const next = signed();
    expect(checkRequestProof({ ...next.facts, seenNonces: facts.seenNonces }).valid).toBe(true);
  });

  it("refuses a request signed outside the time window, before or after", () => {
    for (const timestamp of [NOW - LOCAL_PROOF_WINDOW_MS - 1, NOW + LOCAL_PROOF_WINDOW_MS + 1])
      expect(checkRequestProof(signed({ timestamp }).facts)).toMatchObject({
        valid: false,
        refusal: "stale",
      });
  });

  it("refuses a request signed before this daemon started (a copy kept while another program held the port)", () => {
    const { facts } = signed({ timestamp: NOW - 1000 });
    expect(checkRequestProof({ ...facts, startedAt: NOW - 999 })).toMatchObject({
      valid: false,
      refusal: "before-start",
    });
  });

  it("refuses a proof made with another key, or for another port, path, method or body", () => {
    expect(checkRequestProof(signed({ signedWith: "another-key" }).facts)).toMatchObject({
      refusal: "wrong",
    });
    const { facts } = signed();
    for (const changed of [
      { port: 8791 },
      { path: "/permission-requests" },
      { method: "PUT" },
      { body: new TextEncoder().encode('{"text":"done!"}') },
    ])
      expect(checkRequestProof({ ...facts, ...changed })).toMatchObject({ valid: false, refusal: "wrong" });
  });

  it("refuses a header that is not v1.<timestamp>.<nonce>.<proof>", () => {
    const { facts, proof } = signed();
    for (const header of [
      "",
      "Bearer the-daemons-local-key",
      `v2.${NOW}.${"n".repeat(22)}.${proof}`,
      `v1.${NOW}.short.${proof}`,
      `v1.soon.${"n".repeat(22)}.${proof}`,
      `v1.${NOW}.${"n".repeat(22)}.${proof}x`,
    ])
      expect(checkRequestProof({ ...facts, header })).toMatchObject({ valid: false, refusal: "malformed" });
  });
});
