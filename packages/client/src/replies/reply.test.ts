import { aad, generateKey, openJson, sealJson } from "@ringback/e2e-crypto";
import { CANNOT_DECRYPT_REPLY, type ReplyStatusChange } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { deliveryFromStatus, newReplyId, sealReply } from "./reply.js";

const key = generateKey();
const change = (overrides: Partial<ReplyStatusChange>): ReplyStatusChange => ({
  seq: 7,
  eventId: "e1",
  replyId: "r_1",
  status: "failed",
  sealedReason: null,
  plaintextReason: null,
  at: "2026-03-02T10:00:00.000Z",
  ...overrides,
});

describe("replies after hang-up", () => {
  it("seals the reply for the call's event and computer, stamped, so only that computer reads it, once", async () => {
    const replyId = newReplyId();
    const now = new Date("2026-03-02T10:00:00.000Z");
    const reply = { computerId: "dev_c", eventId: "e1", replyId, text: "Run the migration first." };
    const request = await sealReply(key, reply, now);
    expect(request.replyId).toBe(replyId);
    expect(request.sealed).not.toContain("migration");
    const opened = await openJson<{ nonce: string }>(key, aad.replyTo("dev_c", "e1"), request.sealed);
    expect(opened).toEqual({
      replyId,
      text: "Run the migration first.",
      sentAt: "2026-03-02T10:00:00.000Z",
      nonce: expect.stringMatching(/^[\w-]{22}$/),
    });
    for (const other of [aad.replyTo("dev_c", "e2"), aad.replyTo("dev_other", "e1"), aad.reply("e1")]) {
      await expect(openJson(key, other, request.sealed)).rejects.toThrow();
    }
    const again = await openJson<{ nonce: string }>(
      key,
      aad.replyTo("dev_c", "e1"),
      (await sealReply(key, reply, now)).sealed,
    );
    expect(again.nonce).not.toBe(opened.nonce);
  });

  it("shows a failure with its decrypted reason", async () => {
    const sealedReason = await sealJson(key, aad.replyError("r_1"), { reason: "codex exited with code 2" });
    expect(await deliveryFromStatus(key, change({ sealedReason }))).toEqual({
      status: "failed",
      reason: "codex exited with code 2",
      at: "2026-03-02T10:00:00.000Z",
    });
  });

  it("shows the relay's plaintext reason when the computer could not decrypt the reply", async () => {
    const delivery = await deliveryFromStatus(key, change({ plaintextReason: CANNOT_DECRYPT_REPLY }));
    expect(delivery.reason).toBe(CANNOT_DECRYPT_REPLY);
  });

  it("says so when a sealed reason does not open with this device's key", async () => {
    const sealedReason = await sealJson(generateKey(), aad.replyError("r_1"), { reason: "secret" });
    expect(await deliveryFromStatus(key, change({ sealedReason }))).toMatchObject({
      reason: null,
      isReasonUnreadable: true,
    });
  });

  it("shows delivered", async () => {
    expect(await deliveryFromStatus(key, change({ status: "delivered" }))).toMatchObject({
      status: "delivered",
      reason: null,
    });
  });
});
