import { readVapid } from "@ringback/test-kit";
import { describe, expect, it } from "vitest";
import webpush from "web-push";
import { VAPID_TOKEN_REUSE_MS, VapidTokens } from "./vapid-tokens.js";

const SUBJECT = "mailto:relay@example.org";
const FCM = "https://fcm.googleapis.com";
const MOZILLA = "https://updates.push.services.mozilla.com";

/** The token's claims once the test push service's check (signature, audience, expiry) passes. */
function claimsOf(authorization: string, audience: string): { aud: string; exp: number; sub: string } {
  const { problem } = readVapid(authorization, audience);
  if (problem !== null) throw new Error(problem);
  const token = authorization.match(/t=([^,\s]+)/)?.[1] ?? "";
  return JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8"));
}

describe("VapidTokens", () => {
  const keys = webpush.generateVAPIDKeys();

  it("signs a token for the push service and sends the same one until it is an hour old", () => {
    let now = Date.now();
    const tokens = new VapidTokens(() => now);
    const first = tokens.authorization(FCM, SUBJECT, keys);
    const claims = claimsOf(first, FCM);
    expect(claims).toMatchObject({ aud: FCM, sub: SUBJECT });
    // web-push's 12 hours: far more than the hour it is reused, far less than the 24 a push service takes.
    expect(claims.exp * 1000).toBeGreaterThan(Date.now() + 11 * VAPID_TOKEN_REUSE_MS);
    now += VAPID_TOKEN_REUSE_MS - 1;
    expect(tokens.authorization(FCM, SUBJECT, keys)).toBe(first);
    now += 1;
    const next = tokens.authorization(FCM, SUBJECT, keys);
    expect(next).not.toBe(first);
    expect(claimsOf(next, FCM).aud).toBe(FCM);
  });

  it("keeps one token per push service, key and subject", () => {
    const tokens = new VapidTokens();
    const other = webpush.generateVAPIDKeys();
    const fcm = tokens.authorization(FCM, SUBJECT, keys);
    expect(claimsOf(tokens.authorization(MOZILLA, SUBJECT, keys), MOZILLA).aud).toBe(MOZILLA);
    expect(tokens.authorization(FCM, SUBJECT, other)).toContain(`k=${other.publicKey}`);
    expect(claimsOf(tokens.authorization(FCM, "mailto:other@example.org", keys), FCM).sub).toBe(
      "mailto:other@example.org",
    );
    expect(tokens.authorization(FCM, SUBJECT, keys)).toBe(fcm);
  });

  it("signs afresh when the clock went back", () => {
    let now = Date.now();
    const tokens = new VapidTokens(() => now);
    const first = tokens.authorization(FCM, SUBJECT, keys);
    now -= 1000;
    expect(tokens.authorization(FCM, SUBJECT, keys)).not.toBe(first);
  });

  it("throws for keys it cannot sign with", () => {
    expect(() =>
      new VapidTokens().authorization(FCM, SUBJECT, { publicKey: "x", privateKey: "y" }),
    ).toThrow();
  });
});
