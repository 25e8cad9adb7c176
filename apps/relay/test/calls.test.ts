import { describe, expect, it } from "vitest";
import { CALL_EXPIRY_DEFAULT_MS } from "../src/relay-config.js";
import { eventBody, type InProcessRelay, inProcessRelay } from "./support/in-process-relay.js";

async function ringing(relay: InProcessRelay) {
  const computer = await relay.signUp("computer");
  const phone = await relay.pair(computer.deviceToken, "phone");
  const browser = await relay.pair(computer.deviceToken, "browser");
  await relay.request("POST", "/v1/daemon/events", { token: computer.deviceToken, body: eventBody("ev1") });
  const setStatus = (token: string, status: string, eventId = "ev1") =>
    relay.request("POST", `/v1/calls/${eventId}/status`, { token, body: { status } });
  return { computer, phone, browser, setStatus };
}

describe("call status write-back", () => {
  it("lets the first answer win and refuses a later one with 409", async () => {
    await using relay = await inProcessRelay();
    const { phone, browser, setStatus } = await ringing(relay);
    const first = await setStatus(phone.deviceToken, "answered");
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ eventId: "ev1", status: "answered", won: true });
    const second = await setStatus(browser.deviceToken, "answered");
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe("call_already_answered");
    expect((await setStatus(phone.deviceToken, "answered")).status).toBe(200);
  });

  it("lets exactly one of two simultaneous answers win", async () => {
    await using relay = await inProcessRelay();
    const { phone, browser, setStatus } = await ringing(relay);
    const answers = await Promise.all([
      setStatus(phone.deviceToken, "answered"),
      setStatus(browser.deviceToken, "answered"),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
  });

  it("keeps an answered call readable until it ends, then erases it", async () => {
    await using relay = await inProcessRelay();
    const { phone, setStatus } = await ringing(relay);
    await setStatus(phone.deviceToken, "answered");
    const during = await relay.request("GET", "/v1/calls/ev1", { token: phone.deviceToken });
    expect(during.body).toMatchObject({ status: "answered", sealed: expect.stringMatching(/^e2e1\./) });
    expect((await setStatus(phone.deviceToken, "ended")).body).toEqual({
      eventId: "ev1",
      status: "ended",
      won: true,
    });
    const after = await relay.request("GET", "/v1/calls/ev1", { token: phone.deviceToken });
    expect(after.status).toBe(404);
    expect(after.body.error.code).toBe("call_not_found");
  });

  it.each(["rejected", "acknowledged", "ended"])(
    "ends a ringing call when %s and erases it",
    async (status) => {
      await using relay = await inProcessRelay();
      const { phone, browser, setStatus } = await ringing(relay);
      expect((await setStatus(browser.deviceToken, status)).body).toEqual({
        eventId: "ev1",
        status,
        won: true,
      });
      expect((await relay.request("GET", "/v1/calls/ev1", { token: phone.deviceToken })).status).toBe(404);
    },
  );

  it("takes a re-reported end as a repeat, and another device's end of an ended call as no change", async () => {
    await using relay = await inProcessRelay();
    const { phone, browser, setStatus } = await ringing(relay);
    await setStatus(phone.deviceToken, "rejected");
    expect((await setStatus(phone.deviceToken, "rejected")).body).toEqual({
      eventId: "ev1",
      status: "rejected",
      won: true,
    });
    expect((await setStatus(browser.deviceToken, "acknowledged")).body).toEqual({
      eventId: "ev1",
      status: "rejected",
      won: false,
    });
    const lateAnswer = await setStatus(browser.deviceToken, "answered");
    expect(lateAnswer.status).toBe(409);
    expect(lateAnswer.body.error.message).toContain("rejected");
  });

  it("answers 404 call_not_found for a call it never had", async () => {
    await using relay = await inProcessRelay();
    const { phone, setStatus } = await ringing(relay);
    const response = await setStatus(phone.deviceToken, "answered", "never-sent");
    expect(response.status).toBe(404);
    expect(response.body.error.code).toBe("call_not_found");
  });

  it("refuses a status a client may not write", async () => {
    await using relay = await inProcessRelay();
    const { phone, setStatus } = await ringing(relay);
    expect((await setStatus(phone.deviceToken, "expired")).status).toBe(400);
    expect((await setStatus(phone.deviceToken, "answered", "bad%2Fid")).status).toBe(400);
  });
});

describe("call expiry", () => {
  it("expires an unanswered call after the bound and erases it", async () => {
    await using relay = await inProcessRelay();
    const { phone, setStatus } = await ringing(relay);
    relay.clock.advance(CALL_EXPIRY_DEFAULT_MS - 1);
    await relay.relay.sweep();
    expect((await relay.request("GET", "/v1/calls/ev1", { token: phone.deviceToken })).status).toBe(200);
    relay.clock.advance(1);
    await relay.relay.sweep();
    expect((await relay.request("GET", "/v1/calls/ev1", { token: phone.deviceToken })).status).toBe(404);
    const late = await setStatus(phone.deviceToken, "answered");
    expect(late.status).toBe(409);
    expect(late.body.error.message).toContain("expired");
  });

  it("expires a call past its time even before the sweep timer runs", async () => {
    await using relay = await inProcessRelay({ callExpiryMs: 60_000 });
    const { phone, setStatus } = await ringing(relay);
    relay.clock.advance(60_000);
    expect((await setStatus(phone.deviceToken, "answered")).status).toBe(409);
  });
});

describe("replies", () => {
  it("queues a reply for the computer that sent the event, idempotent on its id", async () => {
    await using relay = await inProcessRelay();
    const { computer, phone, setStatus } = await ringing(relay);
    await setStatus(phone.deviceToken, "ended");
    const reply = { replyId: "reply-1", sealed: "e2e1.key.iv.reply" };
    const path = "/v1/calls/ev1/replies";
    const accepted = await relay.request("POST", path, { token: phone.deviceToken, body: reply });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({ replyId: "reply-1", eventId: "ev1", status: "queued" });
    expect((await relay.request("POST", path, { token: phone.deviceToken, body: reply })).status).toBe(202);
    expect(await relay.store.queuedReplies(computer.deviceId)).toEqual([
      { replyId: "reply-1", eventId: "ev1", sealed: "e2e1.key.iv.reply" },
    ]);
  });

  it("refuses a reply to an unknown call and a reply id reused for another call", async () => {
    await using relay = await inProcessRelay();
    const { computer, phone } = await ringing(relay);
    await relay.request("POST", "/v1/daemon/events", { token: computer.deviceToken, body: eventBody("ev2") });
    const reply = { replyId: "reply-1", sealed: "e2e1.key.iv.reply" };
    const unknown = await relay.request("POST", "/v1/calls/nope/replies", {
      token: phone.deviceToken,
      body: reply,
    });
    expect(unknown.status).toBe(404);
    await relay.request("POST", "/v1/calls/ev1/replies", { token: phone.deviceToken, body: reply });
    const reused = await relay.request("POST", "/v1/calls/ev2/replies", {
      token: phone.deviceToken,
      body: reply,
    });
    expect(reused.status).toBe(400);
  });

  it("fails a reply nobody picked up within 24 hours", async () => {
    await using relay = await inProcessRelay();
    const { computer, phone } = await ringing(relay);
    const reply = { replyId: "reply-1", sealed: "e2e1.key.iv.reply" };
    await relay.request("POST", "/v1/calls/ev1/replies", { token: phone.deviceToken, body: reply });
    relay.clock.advance(24 * 60 * 60_000);
    await relay.relay.sweep();
    expect(await relay.store.queuedReplies(computer.deviceId)).toEqual([]);
    const again = await relay.request("POST", "/v1/calls/ev1/replies", {
      token: phone.deviceToken,
      body: reply,
    });
    expect(again.body.status).toBe("failed");
  });

  it("fails a reply at once when the computer that sent the call was removed", async () => {
    await using relay = await inProcessRelay();
    const { computer, phone } = await ringing(relay);
    await relay.request("DELETE", `/v1/devices/${computer.deviceId}`, { token: phone.deviceToken });
    const reply = { replyId: "reply-1", sealed: "e2e1.key.iv.reply" };
    const accepted = await relay.request("POST", "/v1/calls/ev1/replies", {
      token: phone.deviceToken,
      body: reply,
    });
    expect(accepted.body.status).toBe("failed");
  });
});
