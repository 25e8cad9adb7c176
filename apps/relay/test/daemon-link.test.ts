import { LINK_CLOSE_CODES } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { DaemonClient } from "./support/daemon-client.js";
import { eventBody } from "./support/in-process-relay.js";
import { type SocketRelay, socketRelay } from "./support/socket-relay.js";
import { SseClient } from "./support/sse-client.js";

async function accountWithCall(relay: SocketRelay) {
  const computer = await relay.signUp("computer");
  const phone = await relay.pair(computer.deviceToken, "phone");
  await relay.request("POST", "/v1/daemon/events", { token: computer.deviceToken, body: eventBody("ev1") });
  const reply = (replyId: string) =>
    relay.request("POST", "/v1/calls/ev1/replies", {
      token: phone.deviceToken,
      body: { replyId, sealed: `e2e1.k.iv.${replyId}` },
    });
  return { computer, phone, reply };
}

describe("daemon link", () => {
  it("refuses an upgrade without a valid device token", async () => {
    await using relay = await socketRelay();
    await expect(DaemonClient.connect(relay.url, null)).rejects.toMatchObject({ status: 401 });
    await expect(DaemonClient.connect(relay.url, "unknown-token")).rejects.toMatchObject({ status: 401 });
  });

  it("refuses a WebSocket on any other path", async () => {
    await using relay = await socketRelay();
    const computer = await relay.signUp("computer");
    const wrong = DaemonClient.connect(relay.url, computer.deviceToken, { path: "/v1/stream" });
    await expect(wrong).rejects.toMatchObject({ status: 404 });
  });

  it("replaces an older link of the same device with the newer one", async () => {
    await using relay = await socketRelay();
    const computer = await relay.signUp("computer");
    await using first = await DaemonClient.connect(relay.url, computer.deviceToken);
    await using second = await DaemonClient.connect(relay.url, computer.deviceToken);
    expect(await first.waitForClose()).toBe(LINK_CLOSE_CODES.replaced);
    expect(second.closeCode).toBeNull();
  });

  it("drops a link whose pongs stopped", async () => {
    await using relay = await socketRelay({ linkPingMs: 50 });
    const computer = await relay.signUp("computer");
    await using silent = await DaemonClient.connect(relay.url, computer.deviceToken, { autoPong: false });
    expect(await silent.waitForClose()).toBe(1006);
  });

  it("keeps a link that answers pings", async () => {
    await using relay = await socketRelay({ linkPingMs: 20 });
    const computer = await relay.signUp("computer");
    await using daemon = await DaemonClient.connect(relay.url, computer.deviceToken);
    // The relay pings a link again only if it answered the ping before (else it drops it): four pings, three checks.
    await daemon.waitForPings(4);
    expect(daemon.closeCode).toBeNull();
  });

  it("closes a removed computer's link", async () => {
    await using relay = await socketRelay();
    const { computer, phone } = await accountWithCall(relay);
    await using daemon = await DaemonClient.connect(relay.url, computer.deviceToken);
    await relay.request("DELETE", `/v1/devices/${computer.deviceId}`, { token: phone.deviceToken });
    expect(await daemon.waitForClose()).toBe(LINK_CLOSE_CODES.deviceRemoved);
    await expect(DaemonClient.connect(relay.url, computer.deviceToken)).rejects.toMatchObject({
      status: 401,
    });
  });
});

describe("replies over the link", () => {
  it("delivers a reply queued while the link was down once the daemon connects", async () => {
    await using relay = await socketRelay();
    const { computer, reply } = await accountWithCall(relay);
    expect((await reply("r1")).body.status).toBe("queued");
    await using daemon = await DaemonClient.connect(relay.url, computer.deviceToken);
    expect(await daemon.waitFor("reply")).toEqual({
      type: "reply",
      replyId: "r1",
      eventId: "ev1",
      sealed: "e2e1.k.iv.r1",
    });
  });

  it("sends a reply at once to a connected daemon and sends an unsettled one again after a reconnect", async () => {
    await using relay = await socketRelay();
    const { computer, reply } = await accountWithCall(relay);
    const first = await DaemonClient.connect(relay.url, computer.deviceToken);
    await reply("r1");
    await first.waitFor("reply");
    await first[Symbol.asyncDispose]();
    await using second = await DaemonClient.connect(relay.url, computer.deviceToken);
    expect((await second.waitFor("reply")).replyId).toBe("r1");
  });

  it("tells every device how the reply ended and stops sending it", async () => {
    await using relay = await socketRelay();
    const { computer, phone, reply } = await accountWithCall(relay);
    using stream = new SseClient(relay.url, phone.deviceToken, { lastEventId: 1 });
    await using daemon = await DaemonClient.connect(relay.url, computer.deviceToken);
    await reply("r1");
    await reply("r2");
    await daemon.waitFor("reply", (m) => m.replyId === "r2");
    daemon.send({ type: "reply-status", replyId: "r1", status: "failed", sealedReason: "e2e1.k.iv.why" });
    daemon.send({
      type: "reply-status",
      replyId: "r2",
      status: "failed",
      plaintextReason: "cannot decrypt reply",
    });
    const sealed = await stream.waitFor("reply-status", (d) => d.replyId === "r1" && d.status === "failed");
    expect(sealed.data).toMatchObject({
      eventId: "ev1",
      sealedReason: "e2e1.k.iv.why",
      plaintextReason: null,
    });
    const plain = await stream.waitFor("reply-status", (d) => d.replyId === "r2" && d.status === "failed");
    expect(plain.data).toMatchObject({ sealedReason: null, plaintextReason: "cannot decrypt reply" });
    expect(stream.of("reply-status").map((e) => [e.data.replyId, e.data.status])).toEqual([
      ["r1", "queued"],
      ["r2", "queued"],
      ["r1", "failed"],
      ["r2", "failed"],
    ]);
    expect(await relay.store.queuedReplies(computer.deviceId)).toEqual([]);
  });

  it("ignores a reply status from a computer the reply was not for", async () => {
    await using relay = await socketRelay();
    const { computer, reply } = await accountWithCall(relay);
    const other = await relay.pair(computer.deviceToken, "computer");
    await reply("r1");
    await using intruder = await DaemonClient.connect(relay.url, other.deviceToken);
    intruder.send({ type: "reply-status", replyId: "r1", status: "delivered" });
    await using daemon = await DaemonClient.connect(relay.url, computer.deviceToken);
    expect((await daemon.waitFor("reply")).replyId).toBe("r1");
  });
});

describe("settings relay", () => {
  async function settingsSetup(relay: SocketRelay) {
    const { computer, phone } = await accountWithCall(relay);
    const relaySettings = (requestId: string, deviceId = computer.deviceId) =>
      relay.request("POST", `/v1/devices/${deviceId}/settings`, {
        token: phone.deviceToken,
        body: { requestId, sealed: `e2e1.k.iv.${requestId}` },
      });
    return { computer, phone, relaySettings };
  }

  it("forwards a sealed request, stamped with the id of the device whose token sent it, and returns the daemon's sealed result", async () => {
    await using relay = await socketRelay();
    const { computer, phone, relaySettings } = await settingsSetup(relay);
    await using daemon = await DaemonClient.connect(relay.url, computer.deviceToken);
    const pending = relaySettings("q1");
    const request = await daemon.waitFor("settings-request");
    expect(request).toEqual({
      type: "settings-request",
      requestId: "q1",
      sealed: "e2e1.k.iv.q1",
      senderDeviceId: phone.deviceId,
    });
    daemon.send({ type: "settings-result", requestId: "q1", sealed: "e2e1.k.iv.result" });
    const response = await pending;
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ requestId: "q1", sealed: "e2e1.k.iv.result" });
  });

  it("answers 503 computer_offline when the computer has no link", async () => {
    await using relay = await socketRelay();
    const { relaySettings } = await settingsSetup(relay);
    const response = await relaySettings("q1");
    expect(response.status).toBe(503);
    expect(response.body.error.code).toBe("computer_offline");
  });

  it("answers 504 computer_timeout when the daemon does not answer in time", async () => {
    await using relay = await socketRelay({ settingsTimeoutMs: 100 });
    const { computer, relaySettings } = await settingsSetup(relay);
    await using _daemon = await DaemonClient.connect(relay.url, computer.deviceToken);
    const response = await relaySettings("q1");
    expect(response.status).toBe(504);
    expect(response.body.error.code).toBe("computer_timeout");
  });

  it.each([
    ["undecryptable_request", 400],
    ["not_relayed", 403],
  ] as const)("passes the daemon's plaintext %s on with its status", async (code, status) => {
    await using relay = await socketRelay();
    const { computer, relaySettings } = await settingsSetup(relay);
    await using daemon = await DaemonClient.connect(relay.url, computer.deviceToken);
    const pending = relaySettings("q1");
    await daemon.waitFor("settings-request");
    daemon.send({ type: "settings-error", requestId: "q1", error: { code, message: "refused" } });
    const response = await pending;
    expect(response.status).toBe(status);
    expect(response.body).toEqual({ error: { code, message: "refused" } });
  });

  it("answers 503 when the link drops while the request waits", async () => {
    await using relay = await socketRelay();
    const { computer, relaySettings } = await settingsSetup(relay);
    const daemon = await DaemonClient.connect(relay.url, computer.deviceToken);
    const pending = relaySettings("q1");
    await daemon.waitFor("settings-request");
    await daemon[Symbol.asyncDispose]();
    expect((await pending).status).toBe(503);
  });

  it("only relays to a computer of the same account", async () => {
    await using relay = await socketRelay();
    const { phone, relaySettings } = await settingsSetup(relay);
    const stranger = await relay.signUp("computer");
    expect((await relaySettings("q1", phone.deviceId)).status).toBe(404);
    expect((await relaySettings("q2", stranger.deviceId)).status).toBe(404);
  });
});
