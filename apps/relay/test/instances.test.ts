import { generateKey, sealFleetState } from "@ringback/e2e-crypto";
import { FLEET_PAD_STEP_BYTES, LINK_CLOSE_CODES } from "@ringback/protocol";
import { expect, it } from "vitest";
import { DaemonClient } from "./support/daemon-client.js";
import { eventBody } from "./support/in-process-relay.js";
import { type PostgresRelays, startPostgresRelays } from "./support/postgres-relays.js";
import { describePostgres } from "./support/postgres-schema.js";
import { SseClient } from "./support/sse-client.js";

const SEQUENCED = new Set(["call", "call-status", "reply-status"]);

/** Two instances, a computer, a phone and a browser; the instances are `a` and `b`. */
async function twoInstances(config: Parameters<typeof startPostgresRelays>[1] = {}) {
  const relays = await startPostgresRelays(2, config);
  const [a, b] = relays.instances as [PostgresRelays["instances"][0], PostgresRelays["instances"][0]];
  const computer = await relays.signUp("computer");
  const phone = await relays.pair(computer.deviceToken, "phone");
  const browser = await relays.pair(computer.deviceToken, "browser");
  const post = (via: typeof a, eventId: string, token = computer.deviceToken) =>
    via.request("POST", "/v1/daemon/events", { token, body: eventBody(eventId) });
  const settings = (via: typeof a, requestId: string) =>
    via.request("POST", `/v1/devices/${computer.deviceId}/settings`, {
      token: phone.deviceToken,
      body: { requestId, sealed: `e2e1.k.iv.${requestId}` },
    });
  /** Resolves once instance `via` sees the computer's link (its lease is written just after the link opens). */
  const linked = (via: typeof a) =>
    expect
      .poll(async () => {
        const list = await via.request("GET", "/v1/devices", { token: phone.deviceToken });
        return list.body.devices.find((device: { id: string }) => device.id === computer.deviceId).online;
      })
      .toBe(true);
  return { relays, a, b, computer, phone, browser, post, settings, linked };
}

describePostgres("several relay instances on one PostgreSQL database", () => {
  it("rings streams on every instance, and Last-Event-ID resumes on another one", async () => {
    const { relays, a, b, phone, browser, post } = await twoInstances();
    await using _ = relays;
    using phoneStream = new SseClient(a.url, phone.deviceToken);
    using browserStream = new SseClient(b.url, browser.deviceToken);
    await Promise.all([phoneStream.waitForSynced(), browserStream.waitForSynced()]);

    expect((await post(a, "ev1")).status).toBe(201);
    expect((await post(b, "ev2")).status).toBe(201);
    for (const stream of [phoneStream, browserStream]) {
      await stream.waitFor("call", (data) => data.eventId === "ev2");
      expect(stream.of("call").map((event) => [event.id, event.data.eventId])).toEqual([
        ["1", "ev1"],
        ["2", "ev2"],
      ]);
    }
    const answer = await b.request("POST", "/v1/calls/ev1/status", {
      token: browser.deviceToken,
      body: { status: "rejected" },
    });
    expect(answer.status).toBe(200);
    await phoneStream.waitFor("call-status", (data) => data.eventId === "ev1");

    phoneStream.close();
    await post(b, "ev3");
    await post(a, "ev4");
    using resumed = new SseClient(b.url, phone.deviceToken, { lastEventId: 3 });
    await resumed.waitForSynced();
    await post(a, "ev5");
    await resumed.waitFor("call", (data) => data.eventId === "ev5");
    expect(resumed.events.filter((e) => SEQUENCED.has(e.type)).map((e) => [e.id, e.data.eventId])).toEqual([
      ["4", "ev3"],
      ["5", "ev4"],
      ["6", "ev5"],
    ]);
  });

  it("sends events posted on both instances at once to every stream in seq order, none lost or doubled", async () => {
    const { relays, a, b, phone, browser, post } = await twoInstances();
    await using _ = relays;
    using phoneStream = new SseClient(a.url, phone.deviceToken);
    using browserStream = new SseClient(b.url, browser.deviceToken);
    await Promise.all([phoneStream.waitForSynced(), browserStream.waitForSynced()]);
    const ids = Array.from({ length: 30 }, (_, index) => `ev${index + 1}`);
    const posted = await Promise.all(ids.map((id, index) => post(index % 2 === 0 ? a : b, id)));
    expect(posted.every((response) => response.status === 201)).toBe(true);
    for (const stream of [phoneStream, browserStream]) {
      await stream.waitUntil(() => (stream.of("call").length >= ids.length ? true : undefined), "30 calls");
      expect(stream.of("call").map((event) => Number(event.id))).toEqual(ids.map((_, index) => index + 1));
      expect(new Set(stream.of("call").map((event) => event.data.eventId)).size).toBe(ids.length);
    }
  });

  it("lets exactly one of two answers on different instances win, and both streams learn who", async () => {
    const { relays, a, b, phone, browser, post } = await twoInstances();
    await using _ = relays;
    using phoneStream = new SseClient(a.url, phone.deviceToken);
    using browserStream = new SseClient(b.url, browser.deviceToken);
    await Promise.all([phoneStream.waitForSynced(), browserStream.waitForSynced()]);
    await post(a, "ev1");
    await Promise.all([phoneStream.waitFor("call"), browserStream.waitFor("call")]);

    const results = await Promise.all([
      a.request("POST", "/v1/calls/ev1/status", { token: phone.deviceToken, body: { status: "answered" } }),
      b.request("POST", "/v1/calls/ev1/status", { token: browser.deviceToken, body: { status: "answered" } }),
    ]);
    expect(results.map((result) => result.status).sort()).toEqual([200, 409]);
    const winner = results[0]?.status === 200 ? phone.deviceId : browser.deviceId;
    for (const stream of [phoneStream, browserStream]) {
      expect((await stream.waitFor("call-status")).data.deviceId).toBe(winner);
    }
    await post(b, "after");
    await phoneStream.waitFor("call", (data) => data.eventId === "after");
    expect(phoneStream.of("call-status")).toHaveLength(1);
  });

  it("keeps event ids idempotent and a task to one call across instances (409 duplicate_task)", async () => {
    const { relays, a, b, computer, post } = await twoInstances();
    await using _ = relays;
    const laptop = await relays.pair(computer.deviceToken, "computer");
    const same = await Promise.all([post(a, "ev1"), post(b, "ev1")]);
    expect(same.map((response) => response.status).sort()).toEqual([200, 201]);
    expect(same[0]?.body.seq).toBe(same[1]?.body.seq);

    const tracker = (via: typeof a, token: string, eventId: string) =>
      via.request("POST", "/v1/daemon/tracker-reports", {
        token,
        body: { ...eventBody(eventId), source: "tracker", taskId: "task-1" },
      });
    const both = await Promise.all([
      tracker(a, computer.deviceToken, "task-1"),
      tracker(b, laptop.deviceToken, "task-1-laptop"),
    ]);
    expect(both.map((response) => response.status).sort()).toEqual([201, 409]);
    expect(both.find((response) => response.status === 409)?.body.error.code).toBe("duplicate_task");
  });

  it("relays a settings request to the daemon whichever instance it reaches", async () => {
    const { relays, a, b, computer, settings, linked } = await twoInstances();
    await using _ = relays;
    await using daemon = await DaemonClient.connect(a.url, computer.deviceToken);
    daemon.socket.on("message", (data) => {
      const message = JSON.parse(data.toString());
      if (message.type !== "settings-request") return;
      daemon.send({
        type: "settings-result",
        requestId: message.requestId,
        sealed: `e2e1.k.iv.result-${message.requestId}`,
      });
    });
    await linked(b);
    const [onA, onB] = await Promise.all([settings(a, "via-a"), settings(b, "via-b")]);
    expect(onA).toMatchObject({
      status: 200,
      body: { requestId: "via-a", sealed: "e2e1.k.iv.result-via-a" },
    });
    expect(onB).toMatchObject({
      status: 200,
      body: { requestId: "via-b", sealed: "e2e1.k.iv.result-via-b" },
    });
  });

  it("passes the daemon's refusal through another instance with its status", async () => {
    const { relays, b, a, computer, settings, linked } = await twoInstances();
    await using _ = relays;
    await using daemon = await DaemonClient.connect(a.url, computer.deviceToken);
    daemon.socket.on("message", (data) => {
      const message = JSON.parse(data.toString());
      daemon.send({
        type: "settings-error",
        requestId: message.requestId,
        error: { code: "undecryptable_request", message: "cannot decrypt" },
      });
    });
    await linked(b);
    const refused = await settings(b, "r1");
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual({
      code: "undecryptable_request",
      message: "cannot decrypt",
    });
  });

  it("answers 503 when no instance holds the computer's link, and 504 when the daemon stays silent", async () => {
    const { relays, a, b, computer, phone, settings, linked } = await twoInstances({
      settingsTimeoutMs: 300,
    });
    await using _ = relays;
    const offline = await settings(b, "nobody");
    expect(offline.status).toBe(503);
    expect(offline.body.error.code).toBe("computer_offline");
    await using daemon = await DaemonClient.connect(a.url, computer.deviceToken);
    await linked(b);
    const silent = await settings(b, "silent");
    expect(silent.status).toBe(504);
    expect(silent.body.error.code).toBe("computer_timeout");
    expect(daemon.received).toContainEqual({
      type: "settings-request",
      requestId: "silent",
      sealed: "e2e1.k.iv.silent",
      // Stamped by the instance the phone reached, carried to the one holding the link.
      senderDeviceId: phone.deviceId,
    });
  });

  it("answers 503 when the link drops while another instance waits, and 400 for a request id in flight", async () => {
    const { relays, a, b, computer, settings, linked } = await twoInstances({ settingsTimeoutMs: 5000 });
    await using _ = relays;
    const daemon = await DaemonClient.connect(a.url, computer.deviceToken);
    await linked(b);
    const pending = settings(b, "drop-me");
    await daemon.waitFor("settings-request", (message) => message.requestId === "drop-me");
    for (const via of [a, b]) {
      const twice = await settings(via, "drop-me");
      expect(twice.status).toBe(400);
      expect(twice.body.error.code).toBe("invalid_request");
    }
    await daemon[Symbol.asyncDispose]();
    const dropped = await pending;
    expect(dropped.status).toBe(503);
    expect(dropped.body.error.code).toBe("computer_offline");
  });

  it("delivers a reply posted on one instance to the daemon linked to the other", async () => {
    const { relays, a, b, computer, browser, post } = await twoInstances();
    await using _ = relays;
    await post(a, "ev1");
    await using daemon = await DaemonClient.connect(a.url, computer.deviceToken);
    using browserStream = new SseClient(b.url, browser.deviceToken);
    await browserStream.waitForSynced();
    const posted = await b.request("POST", "/v1/calls/ev1/replies", {
      token: browser.deviceToken,
      body: { replyId: "r1", sealed: "e2e1.k.iv.reply" },
    });
    expect(posted.status).toBe(202);
    expect(await daemon.waitFor("reply")).toEqual({
      type: "reply",
      replyId: "r1",
      eventId: "ev1",
      sealed: "e2e1.k.iv.reply",
    });
    daemon.send({ type: "reply-status", replyId: "r1", status: "delivered" });
    await browserStream.waitFor("reply-status", (data) => data.status === "delivered");
  });

  it("closes a removed device's stream and link on the other instance", async () => {
    const { relays, a, b, computer, phone, browser } = await twoInstances();
    await using _ = relays;
    using phoneStream = new SseClient(a.url, phone.deviceToken);
    await phoneStream.waitForSynced();
    await using daemon = await DaemonClient.connect(a.url, computer.deviceToken);
    await b.request("DELETE", `/v1/devices/${phone.deviceId}`, { token: browser.deviceToken });
    expect((await phoneStream.waitFor("device-removed")).data).toEqual({ deviceId: phone.deviceId });
    await b.request("DELETE", `/v1/devices/${computer.deviceId}`, { token: browser.deviceToken });
    expect(await daemon.waitForClose()).toBe(LINK_CLOSE_CODES.deviceRemoved);
  });

  it("replaces a link on one instance with a newer one on the other, and shows the computer online", async () => {
    const { relays, a, b, computer, phone } = await twoInstances();
    await using _ = relays;
    const isOnline = async () => {
      const list = await b.request("GET", "/v1/devices", { token: phone.deviceToken });
      return list.body.devices.find((device: { id: string }) => device.id === computer.deviceId).online;
    };
    expect(await isOnline()).toBe(false);
    await using first = await DaemonClient.connect(a.url, computer.deviceToken);
    await expect.poll(isOnline).toBe(true);
    await using second = await DaemonClient.connect(b.url, computer.deviceToken);
    expect(await first.waitForClose()).toBe(LINK_CLOSE_CODES.replaced);
    expect(second.closeCode).toBeNull();
    await second[Symbol.asyncDispose]();
    await expect.poll(isOnline).toBe(false);
  });

  it("counts wrong pairing codes from one address on every instance together", async () => {
    const { relays, a, b } = await twoInstances();
    await using _ = relays;
    const guess = (via: typeof a) =>
      via.request("POST", "/v1/pairing-codes/redeem", {
        body: { code: "000000", deviceName: "guesser", deviceKind: "phone" },
      });
    for (let attempt = 0; attempt < 10; attempt++) {
      expect((await guess(attempt % 2 === 0 ? a : b)).status).toBe(422);
    }
    expect((await guess(a)).status).toBe(429);
    expect((await guess(b)).status).toBe(429);
  });

  it("reports the store and its migration version", async () => {
    const { relays, b } = await twoInstances();
    await using _ = relays;
    const health = await b.request("GET", "/v1/health");
    expect(health.body).toEqual({ ok: true, store: "postgres", migrationVersion: 10, disk: null });
  });
  it("passes a computer's fleet state stored on one instance to streams on the other, once a second at most", async () => {
    const { relays, a, b, computer, phone, browser } = await twoInstances();
    await using _ = relays;
    using onA = new SseClient(a.url, phone.deviceToken);
    using onB = new SseClient(b.url, browser.deviceToken);
    await Promise.all([onA.waitForSynced(), onB.waitForSynced()]);
    const key = generateKey();
    const put = async (via: typeof a, version: number) =>
      via.request("PUT", "/v1/daemon/fleet", {
        token: computer.deviceToken,
        body: {
          sealed: await sealFleetState(
            key,
            computer.deviceId,
            { version, updatedAt: "2026-01-01T09:00:00.000Z", agents: [] },
            FLEET_PAD_STEP_BYTES,
          ),
        },
      });
    const first = await put(a, 1);
    expect(first.status).toBe(200);
    for (const stream of [onA, onB])
      await stream.waitFor("fleet", (data) => data.sealed === first.body.sealed);
    // The second is checked against the first across instances: one statement on the shared row.
    expect((await put(b, 2)).status).toBe(429);
    relays.clock.advance(1000);
    const third = await put(b, 3);
    expect(third.status).toBe(200);
    for (const stream of [onA, onB])
      await stream.waitFor("fleet", (data) => data.sealed === third.body.sealed);
    expect(onA.of("fleet")).toHaveLength(2);
    const listed = await a.request("GET", "/v1/fleet", { token: phone.deviceToken });
    expect(listed.body.computers.map((state: { sealed: string }) => state.sealed)).toEqual([
      third.body.sealed,
    ]);
  });
});
