import { aad, generateKey, openJson } from "@ringback/e2e-crypto";
import { PermissionDecisionPlaintext } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { ASK_DIGEST, T0 } from "../../test/fixtures.js";
import { sealPermissionDecision } from "./permission-decision.js";

const DECISION = {
  computerId: "dev_computer",
  eventId: "needs_abc",
  replyId: "r_1",
  toolInputDigest: ASK_DIGEST,
} as const;

describe("a decision sealed for the computer that asked", () => {
  it("opens only with that computer's decision AAD for that event, bound to the ask's digest and stamped", async () => {
    const key = generateKey();
    const request = await sealPermissionDecision(key, { ...DECISION, verdict: "allow", reason: null }, T0);
    expect(request.replyId).toBe("r_1");
    const opened = PermissionDecisionPlaintext.parse(
      await openJson(key, aad.permissionDecisionTo("dev_computer", "needs_abc"), request.sealed),
    );
    expect(opened).toMatchObject({ eventId: "needs_abc", toolInputDigest: ASK_DIGEST, verdict: "allow" });
    expect(opened.sentAt).toBe(T0.toISOString());
    expect(opened.nonce).toMatch(/^[\w-]{16,}$/);
    // Not a reply, and not for another event or computer.
    await expect(openJson(key, aad.replyTo("dev_computer", "needs_abc"), request.sealed)).rejects.toThrow();
    await expect(
      openJson(key, aad.permissionDecisionTo("dev_computer", "needs_other"), request.sealed),
    ).rejects.toThrow();
    await expect(
      openJson(key, aad.permissionDecisionTo("dev_other", "needs_abc"), request.sealed),
    ).rejects.toThrow();
  });

  it("carries a deny's reason, trimmed, and never a reason with an allow", async () => {
    const key = generateKey();
    const open = async (verdict: "allow" | "deny", reason: string | null) =>
      PermissionDecisionPlaintext.parse(
        await openJson(
          key,
          aad.permissionDecisionTo("dev_computer", "needs_abc"),
          (await sealPermissionDecision(key, { ...DECISION, verdict, reason })).sealed,
        ),
      );
    expect((await open("deny", "  use the staging database  ")).reason).toBe("use the staging database");
    expect((await open("deny", "   ")).reason).toBeNull();
    expect((await open("allow", "whatever")).reason).toBeNull();
  });

  it("names the deciding device when it knows its own name, sealed with the decision", async () => {
    const key = generateKey();
    const open = async (deviceName?: string) =>
      PermissionDecisionPlaintext.parse(
        await openJson(
          key,
          aad.permissionDecisionTo("dev_computer", "needs_abc"),
          (await sealPermissionDecision(key, { ...DECISION, verdict: "allow", reason: null, deviceName }))
            .sealed,
        ),
      );
    expect((await open("Zoë's Pixel")).deviceName).toBe("Zoë's Pixel");
    expect((await open()).deviceName).toBeUndefined();
    expect((await open("   ")).deviceName).toBeUndefined();
  });

  it("has a fresh nonce each time", async () => {
    const key = generateKey();
    const nonces = new Set<string>();
    for (let index = 0; index < 3; index += 1) {
      const { sealed } = await sealPermissionDecision(key, { ...DECISION, verdict: "deny", reason: null });
      const opened = PermissionDecisionPlaintext.parse(
        await openJson(key, aad.permissionDecisionTo("dev_computer", "needs_abc"), sealed),
      );
      nonces.add(opened.nonce);
    }
    expect(nonces.size).toBe(3);
  });
});

describe("what the relay can see of a decision", () => {
  it("seals an allow and a short deny to one length", async () => {
    const key = generateKey();
    const allow = await sealPermissionDecision(key, { ...DECISION, verdict: "allow", reason: null });
    const deny = await sealPermissionDecision(key, { ...DECISION, verdict: "deny", reason: "use staging" });
    expect(allow.sealed.length).toBe(deny.sealed.length);
  });
});
