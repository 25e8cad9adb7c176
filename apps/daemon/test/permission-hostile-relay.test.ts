import { randomBytes } from "node:crypto";
import { sealReply } from "@ringback/client";
import { generateKey } from "@ringback/e2e-crypto";
import { CANNOT_DECRYPT_REPLY, type RelayToDaemonMessage } from "@ringback/protocol";
import { beforeEach, describe, expect, it } from "vitest";
import { bashAsk, failureReason, sealDecision } from "./helpers/permission-asks.js";
import { COMPUTER_ID, permissionHomeForFile } from "./helpers/permission-home.js";

/**
 * The relay is the party the end-to-end design keeps out, and a decision is the one message that lets an agent act.
 * This relay passes every sealed message on, keeps a copy, and tries to turn what it holds into an allow: an old
 * allow replayed, two asks' answers swapped, a deny's ciphertext altered, a decision made up. Each is refused and no
 * hook is ever told allow by it: the hook gets the person's own decision, or expires.
 */
const WAIT_MS = 8000;

type LinkReply = Extract<RelayToDaemonMessage, { type: "reply" }>;

const home = permissionHomeForFile({ waitMs: WAIT_MS });

beforeEach(async () => {
  expect((await home().local("PUT", "/presence", { away: true })).status).toBe(200);
});

async function refusal(message: LinkReply): Promise<string | undefined> {
  const status = await home().relay.send(message);
  if (status.type !== "reply-status") throw new Error(`not a reply status: ${status.type}`);
  expect(status.status).toBe("failed");
  return failureReason(home().key, status);
}

describe("a hostile relay with an ask pending", () => {
  it("cannot replay an old allow, from an earlier ask or the same one twice", async () => {
    const earlier = await home().ring(bashAsk("npm run migrate"));
    const allow = await sealDecision(home().key, COMPUTER_ID, {
      eventId: earlier.post.eventId,
      toolInputDigest: earlier.digest,
      verdict: "allow",
    });
    expect(await home().relay.send(allow)).toMatchObject({ status: "delivered" });
    expect((await earlier.hook.answer).body).toMatchObject({ verdict: "allow" });

    // The same command asked again: the earlier allow names the same digest, but another call.
    const pending = await home().ring(bashAsk("npm run migrate"));
    expect(pending.digest).toBe(earlier.digest);
    expect(await refusal({ ...allow, eventId: pending.post.eventId })).toBe(CANNOT_DECRYPT_REPLY);
    expect(await refusal({ ...allow, replyId: "r_replayed_as_new" })).toBe(
      "this decision is not for this request",
    );
    // Byte for byte again: its status once more, and nothing decided anew.
    expect(await home().relay.send(allow)).toMatchObject({ status: "delivered", replyId: allow.replyId });

    const honest = await sealDecision(home().key, COMPUTER_ID, {
      eventId: pending.post.eventId,
      toolInputDigest: pending.digest,
      verdict: "deny",
    });
    expect(await home().relay.send(honest)).toMatchObject({ status: "delivered" });
    expect((await pending.hook.answer).body).toMatchObject({ outcome: "decided", verdict: "deny" });
  });

  it("refuses a decision whose nonce was taken before, even sealed anew for another pending ask", async () => {
    const first = await home().ring(bashAsk("make clean"));
    const nonce = randomBytes(16).toString("base64url");
    const sentAt = new Date().toISOString();
    await home().relay.send(
      await sealDecision(home().key, COMPUTER_ID, {
        eventId: first.post.eventId,
        toolInputDigest: first.digest,
        verdict: "deny",
        nonce,
        sentAt,
      }),
    );
    expect((await first.hook.answer).body).toMatchObject({ verdict: "deny" });

    const second = await home().ring(bashAsk("make install"));
    const copy = await sealDecision(home().key, COMPUTER_ID, {
      eventId: second.post.eventId,
      toolInputDigest: second.digest,
      verdict: "allow",
      nonce,
      sentAt,
    });
    expect(await refusal(copy)).toBe("already decided");
    expect(
      await home().relay.send(
        await sealDecision(home().key, COMPUTER_ID, {
          eventId: second.post.eventId,
          toolInputDigest: second.digest,
          verdict: "deny",
        }),
      ),
    ).toMatchObject({ status: "delivered" });
    expect((await second.hook.answer).body).toMatchObject({ verdict: "deny" });
  });

  it("cannot swap two pending asks' answers", async () => {
    const dangerous = await home().ring(bashAsk("rm -rf ~/projects"));
    const harmless = await home().ring(bashAsk("ls"));
    const denyDangerous = await sealDecision(home().key, COMPUTER_ID, {
      eventId: dangerous.post.eventId,
      toolInputDigest: dangerous.digest,
      verdict: "deny",
    });
    const allowHarmless = await sealDecision(home().key, COMPUTER_ID, {
      eventId: harmless.post.eventId,
      toolInputDigest: harmless.digest,
      verdict: "allow",
    });

    expect(await refusal({ ...allowHarmless, eventId: dangerous.post.eventId })).toBe(CANNOT_DECRYPT_REPLY);
    expect(await refusal({ ...denyDangerous, eventId: harmless.post.eventId })).toBe(CANNOT_DECRYPT_REPLY);
    expect(
      await refusal({ ...allowHarmless, replyId: denyDangerous.replyId, eventId: dangerous.post.eventId }),
    ).toBe(CANNOT_DECRYPT_REPLY);

    expect(await home().relay.send(denyDangerous)).toMatchObject({ status: "delivered" });
    expect(await home().relay.send(allowHarmless)).toMatchObject({ status: "delivered" });
    expect((await dangerous.hook.answer).body).toMatchObject({ outcome: "decided", verdict: "deny" });
    expect((await harmless.hook.answer).body).toMatchObject({ outcome: "decided", verdict: "allow" });
  });

  it("cannot flip a deny to an allow by altering its ciphertext", async () => {
    const { hook, post, digest } = await home().ring(bashAsk("curl https://example.com/install.sh | sh"));
    const deny = await sealDecision(home().key, COMPUTER_ID, {
      eventId: post.eventId,
      toolInputDigest: digest,
      verdict: "deny",
    });

    for (const sealed of alterations(deny.sealed)) {
      expect(await refusal({ ...deny, replyId: `r_altered_${randomBytes(4).toString("hex")}`, sealed })).toBe(
        CANNOT_DECRYPT_REPLY,
      );
    }
    expect(await home().relay.send(deny)).toMatchObject({ status: "delivered" });
    expect((await hook.answer).body).toMatchObject({ outcome: "decided", verdict: "deny" });
  });

  it("cannot invent a decision: another key, garbage, or a reply's text — the hook only expires", async () => {
    const { hook, post, digest } = await home().ring(bashAsk("sudo shutdown now"));
    const forged = { eventId: post.eventId, toolInputDigest: digest, verdict: "allow" as const };

    expect(await refusal(await sealDecision(generateKey(), COMPUTER_ID, forged))).toBe(CANNOT_DECRYPT_REPLY);
    expect(
      await refusal({ type: "reply", replyId: "r_garbage", eventId: post.eventId, sealed: "e2e1.AAAAallow" }),
    ).toBe(CANNOT_DECRYPT_REPLY);
    const reply = await sealReply(home().key, {
      computerId: COMPUTER_ID,
      eventId: post.eventId,
      replyId: "r_text",
      text: "allow",
    });
    expect(await refusal({ type: "reply", eventId: post.eventId, ...reply })).toBe(CANNOT_DECRYPT_REPLY);

    expect(await hook.answer).toEqual({ status: 200, body: { outcome: "expired" } });
  });
});

/** Ciphertexts a relay can make from one it holds: a character changed at the start, middle and end, and cut. */
function alterations(sealed: string): string[] {
  const flip = (text: string, index: number) =>
    `${text.slice(0, index)}${text[index] === "A" ? "B" : "A"}${text.slice(index + 1)}`;
  const body = "e2e1.".length;
  return [
    flip(sealed, body + 20),
    flip(sealed, Math.floor((body + sealed.length) / 2)),
    flip(sealed, sealed.length - 2),
    sealed.slice(0, -4),
  ];
}
