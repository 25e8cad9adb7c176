import { aad, generateKey, sealJson, sealString } from "@ringback/e2e-crypto";
import {
  DeclarativePushMessage,
  PUSH_PAYLOAD_MAX_BYTES,
  PushMessage,
  PushPublicKey,
} from "@ringback/protocol";
import type { TestSubscription } from "@ringback/test-kit";
import { describe, expect, it } from "vitest";
import { PUSH_SETTLED_TTL_SECONDS } from "../src/runtime/push-delivery.js";
import { openSqliteStore } from "../src/store/sqlite-store.js";
import { eventBody } from "./support/in-process-relay.js";
import { type PushRelay, pushRelay } from "./support/push-relay.js";
import { SseClient } from "./support/sse-client.js";

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;

/** A computer and two phones of one account; each phone registers a subscription at the relay's push service. */
async function account(relay: PushRelay, repeatSeconds?: number) {
  const { publicKey } = PushPublicKey.parse((await relay.request("GET", "/v1/push/public-key")).body);
  const computer = await relay.signUp("computer");
  const phone = await relay.pair(computer.deviceToken, "phone");
  const tablet = await relay.pair(computer.deviceToken, "browser");
  const subscribe = async (token: string) => {
    const subscription = relay.pushService.subscribe(publicKey);
    const response = await relay.request("PUT", "/v1/push/subscription", {
      token,
      body: { ...subscription, expirationTime: null, ...(repeatSeconds ? { repeatSeconds } : {}) },
    });
    expect(response.status).toBe(200);
    return subscription;
  };
  return {
    publicKey,
    computer,
    phone,
    tablet,
    phonePush: await subscribe(phone.deviceToken),
    tabletPush: await subscribe(tablet.deviceToken),
    // The computer has a subscription too: it must not be pushed its own event.
    computerPush: await subscribe(computer.deviceToken),
  };
}

async function postEvent(relay: PushRelay, token: string, eventId: string) {
  const posted = await relay.request("POST", "/v1/daemon/events", { token, body: eventBody(eventId) });
  expect(posted.status).toBe(201);
}

const messagesOf = (relay: PushRelay, subscription: TestSubscription) =>
  relay.pushService
    .delivered(subscription.id)
    .map((push) => PushMessage.parse(JSON.parse(push.payload ?? "")));

/** The ringing pushes a subscription got (without the `call-settled` ones). */
const callsOf = (relay: PushRelay, subscription: TestSubscription) =>
  messagesOf(relay, subscription).filter((message) => message.type === "call");

describe("Web Push: keys and subscriptions", () => {
  it("draws a VAPID key pair once, keeps it in the store, and never shows the private key", async () => {
    let publicKey: string;
    let dataDir: string;
    {
      await using relay = await pushRelay();
      dataDir = relay.dataDir;
      const first = await relay.request("GET", "/v1/push/public-key");
      expect(first.status).toBe(200);
      publicKey = PushPublicKey.parse(first.body).publicKey;
      expect(Buffer.from(publicKey, "base64url")).toHaveLength(65);
      expect(Object.keys(first.body)).toEqual(["publicKey", "subject"]);
      const second = await relay.request("GET", "/v1/push/public-key");
      expect(second.body.publicKey).toBe(publicKey);
      const stored = await relay.store.vapidKeys({ publicKey: "other", privateKey: "other" });
      expect(stored.publicKey).toBe(publicKey);
      expect(relay.logs.join("\n")).not.toContain(stored.privateKey);
      expect(JSON.stringify(first.body)).not.toContain(stored.privateKey);
      // Reopening the same data dir (a restart) finds the same pair.
      const reopened = openSqliteStore(dataDir);
      expect((await reopened.vapidKeys({ publicKey: "x", privateKey: "y" })).publicKey).toBe(publicKey);
      await reopened.close();
    }
  });

  it("registers, replaces, reads and removes the device's own subscription", async () => {
    await using relay = await pushRelay();
    const computer = await relay.signUp("computer");
    const phone = await relay.pair(computer.deviceToken, "phone");
    const token = phone.deviceToken;
    expect((await relay.request("GET", "/v1/push/subscription", { token })).body).toEqual({
      deviceId: phone.deviceId,
      subscribed: false,
      endpoint: null,
      repeatSeconds: null,
      updatedAt: null,
    });
    const first = relay.pushService.subscribe();
    const put = await relay.request("PUT", "/v1/push/subscription", { token, body: first });
    expect(put.body).toMatchObject({ subscribed: true, endpoint: first.endpoint, repeatSeconds: 60 });
    const second = relay.pushService.subscribe();
    await relay.request("PUT", "/v1/push/subscription", { token, body: { ...second, repeatSeconds: 30 } });
    expect((await relay.request("GET", "/v1/push/subscription", { token })).body).toMatchObject({
      subscribed: true,
      endpoint: second.endpoint,
      repeatSeconds: 30,
    });
    const removed = await relay.request("DELETE", "/v1/push/subscription", { token });
    expect(removed.body).toMatchObject({ subscribed: false, endpoint: null });
    expect(await relay.store.findPushSubscription(phone.deviceId)).toBeNull();
  });

  it("refuses a subscription it could not push to, and a request without a device token", async () => {
    await using relay = await pushRelay();
    const computer = await relay.signUp("computer");
    const valid = relay.pushService.subscribe();
    const put = (body: unknown, token: string | undefined = computer.deviceToken) =>
      relay.request("PUT", "/v1/push/subscription", { ...(token ? { token } : {}), body });
    const notOnCurve = { ...valid, keys: { ...valid.keys, p256dh: `BA${"A".repeat(85)}` } };
    const cases = [
      { ...valid, endpoint: valid.endpoint.replace("https:", "http:") },
      notOnCurve,
      { ...valid, keys: { p256dh: valid.keys.p256dh } },
      { ...valid, repeatSeconds: 1 },
      // Only a browser's push service: never an address of the relay's own network.
      { ...valid, endpoint: valid.endpoint.replace("https://127.0.0.1", "https://10.0.0.1") },
      { ...valid, endpoint: "https://fcm.googleapis.com.attacker.example/push/x" },
    ];
    for (const body of cases) {
      const response = await put(body);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe("invalid_request");
    }
    expect((await put(valid, "")).status).toBe(401);
    expect(await relay.store.findPushSubscription(computer.deviceId)).toBeNull();
  });

  it("removes a removed device's subscription with it", async () => {
    await using relay = await pushRelay();
    const { computer, phone, phonePush, tabletPush } = await account(relay);
    const removed = await relay.request("DELETE", `/v1/devices/${phone.deviceId}`, {
      token: computer.deviceToken,
    });
    expect(removed.status).toBe(200);
    expect(await relay.store.findPushSubscription(phone.deviceId)).toBeNull();
    await postEvent(relay, computer.deviceToken, "ev1");
    await relay.pushService.waitFor(() => relay.pushService.delivered(tabletPush.id)[0], "the tablet's push");
    await relay.server.relay.pushDue();
    expect(relay.pushService.received.filter((push) => push.subscriptionId === phonePush.id)).toEqual([]);
  });
});

describe("Web Push: ringing", () => {
  it("pushes a new event to every subscribed device but the computer that sent it, decryptable and readable by none but them", async () => {
    await using relay = await pushRelay({ callExpiryMs: 10 * MINUTE_MS });
    const { publicKey, computer, phone, phonePush, tabletPush, computerPush } = await account(relay);
    // A real sealed report and brief, and a reply, with words that must never appear in a push.
    const key = generateKey();
    const words = { report: "REPORT-refactored the billing module", brief: "BRIEF-billing is refactored" };
    const sealed = await sealJson(key, aad.report("ev-real"), {
      report: { eventId: "ev-real", text: words.report },
      brief: { spoken: words.brief },
    });
    const posted = await relay.request("POST", "/v1/daemon/events", {
      token: computer.deviceToken,
      body: { ...eventBody("ev-real"), sealed },
    });
    expect(posted.status).toBe(201);
    const reply = "REPLY-please also update the changelog";
    await relay.request("POST", "/v1/calls/ev-real/replies", {
      token: phone.deviceToken,
      body: { replyId: "r1", sealed: await sealString(key, aad.reply("ev-real"), reply) },
    });

    const [onPhone, onTablet] = await relay.pushService.waitFor(() => {
      const pushes = [phonePush, tabletPush].map(
        (subscription) => relay.pushService.delivered(subscription.id)[0],
      );
      return pushes.every(Boolean) ? pushes : undefined;
    }, "a push on both phones");
    for (const push of [onPhone, onTablet]) {
      expect(push).toMatchObject({
        status: 201,
        urgency: "high",
        contentEncoding: "aes128gcm",
        vapidPublicKey: publicKey,
        problem: null,
      });
      expect(push?.ttl).toBeGreaterThan(0);
      expect(push?.ttl).toBeLessThanOrEqual(10 * 60);
      expect(push?.topic).toMatch(/^[A-Za-z0-9_-]{1,32}$/);
      const payload = push?.payload ?? "";
      expect(PushMessage.parse(JSON.parse(payload))).toMatchObject({
        type: "call",
        eventId: "ev-real",
        seq: 1,
        source: "claude-code",
        fromDeviceId: computer.deviceId,
        attempt: 1,
        // Short enough to ride along: still sealed end to end, exactly as the devices fetch it.
        sealed,
      });
      for (const text of [words.report, words.brief, reply, "REPORT-", "BRIEF-", "REPLY-"]) {
        expect(payload).not.toContain(text);
      }
    }
    await relay.server.relay.pushDue();
    expect(relay.pushService.received.filter((push) => push.subscriptionId === computerPush.id)).toEqual([]);
    await expect
      .poll(() =>
        relay.logs.some((line) => line.includes(`push sent event=ev-real device=${phone.deviceId}`)),
      )
      .toBe(true);
  });

  it("with a public address, pushes a declarative message: content-free words, the sealed call inside, a tap opening it", async () => {
    await using relay = await pushRelay({ publicUrl: "https://ring.sample.dev" });
    const { computer, phonePush } = await account(relay);
    const long = `e2e1.0123456789abcdef.aXY.${"A".repeat(PUSH_PAYLOAD_MAX_BYTES)}`;
    await postEvent(relay, computer.deviceToken, "needs_ask1");
    const posted = await relay.request("POST", "/v1/daemon/events", {
      token: computer.deviceToken,
      body: eventBody("ev-long", { sealed: long }),
    });
    expect(posted.status).toBe(201);
    const pushes = await relay.pushService.waitFor(() => {
      const delivered = relay.pushService.delivered(phonePush.id);
      return delivered.length >= 2 ? delivered : undefined;
    }, "both calls pushed to the phone");
    const messages = pushes.map((push) => DeclarativePushMessage.parse(JSON.parse(push.payload ?? "")));
    const ask = messages.find((message) => message.notification.data.eventId === "needs_ask1");
    expect(ask).toMatchObject({
      web_push: 8030,
      mutable: true,
      notification: {
        title: "An agent needs you",
        navigate: "https://ring.sample.dev/#call=needs_ask1",
        tag: "ringback-call-needs_ask1",
        data: { type: "call", eventId: "needs_ask1", sealed: eventBody("needs_ask1").sealed },
      },
    });
    const byReference = messages.find((message) => message.notification.data.eventId === "ev-long");
    expect(byReference?.notification.title).toBe("A call from Ringback");
    expect(byReference?.notification.data).not.toHaveProperty("sealed");
    for (const push of pushes)
      expect(Buffer.byteLength(push.payload ?? "")).toBeLessThanOrEqual(PUSH_PAYLOAD_MAX_BYTES);
  });

  it("pushes a call ringing for 3 minutes again every 60 s, replacing the last push, until it is answered", async () => {
    await using relay = await pushRelay();
    const { computer, phone, phonePush, tabletPush } = await account(relay, 60);
    await postEvent(relay, computer.deviceToken, "ev1");
    await relay.pushService.waitFor(
      () => (relay.pushService.delivered(phonePush.id).length === 1 ? true : undefined),
      "the first push",
    );
    await relay.advance(59 * SECOND_MS);
    expect(relay.pushService.delivered(phonePush.id)).toHaveLength(1);
    await relay.advance(1 * SECOND_MS);
    await relay.advance(60 * SECOND_MS);
    await relay.advance(60 * SECOND_MS);
    const pushes = relay.pushService.delivered(phonePush.id);
    expect(callsOf(relay, phonePush).map((message) => message.attempt)).toEqual([1, 2, 3, 4]);
    expect(callsOf(relay, tabletPush).map((message) => message.attempt)).toEqual([1, 2, 3, 4]);
    // One topic for the call: a push service replaces an undelivered earlier push instead of stacking it.
    expect(new Set(pushes.map((push) => push.topic)).size).toBe(1);
    // The TTL never reaches past the time the call can still be answered.
    expect(pushes.map((push) => push.ttl)).toEqual(
      [0, 1, 2, 3].map((minutes) => 24 * 60 * 60 - minutes * 60),
    );

    const answered = await relay.request("POST", "/v1/calls/ev1/status", {
      token: phone.deviceToken,
      body: { status: "answered" },
    });
    expect(answered.status).toBe(200);
    await relay.advance(5 * MINUTE_MS);
    expect(callsOf(relay, phonePush)).toHaveLength(4);
    expect(callsOf(relay, tabletPush)).toHaveLength(4);
  });

  it("pushes a computer's ringing call again at once, at high urgency, when that computer asks (its escalation ladder)", async () => {
    await using relay = await pushRelay();
    const { computer, phone, phonePush, tabletPush, computerPush } = await account(relay, 600);
    await postEvent(relay, computer.deviceToken, "ev1");
    await relay.pushService.waitFor(
      () => (relay.pushService.delivered(tabletPush.id).length === 1 ? true : undefined),
      "the first push",
    );
    await relay.advance(20 * SECOND_MS);
    const again = await relay.request("POST", "/v1/daemon/events/ev1/push", { token: computer.deviceToken });
    expect(again).toMatchObject({ status: 200, body: { eventId: "ev1", devices: 2 } });
    await relay.pushService.waitFor(
      () =>
        relay.pushService.delivered(tabletPush.id).length === 2 &&
        relay.pushService.delivered(phonePush.id).length === 2
          ? true
          : undefined,
      "the push again",
    );
    expect(callsOf(relay, phonePush).map((message) => message.attempt)).toEqual([1, 2]);
    expect(callsOf(relay, tabletPush).map((message) => message.attempt)).toEqual([1, 2]);
    expect(relay.pushService.delivered(phonePush.id).map((push) => push.urgency)).toEqual(["high", "high"]);
    expect(relay.pushService.delivered(computerPush.id)).toHaveLength(0);
    // Only the computer that posted it, and only while it rings.
    const byPhone = await relay.request("POST", "/v1/daemon/events/ev1/push", { token: phone.deviceToken });
    expect(byPhone.status).toBe(403);
    await relay.request("POST", "/v1/calls/ev1/status", {
      token: phone.deviceToken,
      body: { status: "answered" },
    });
    const afterAnswer = await relay.request("POST", "/v1/daemon/events/ev1/push", {
      token: computer.deviceToken,
    });
    expect(afterAnswer).toMatchObject({ status: 404, body: { error: { code: "call_not_found" } } });
    const unknown = await relay.request("POST", "/v1/daemon/events/nope/push", {
      token: computer.deviceToken,
    });
    expect(unknown.status).toBe(404);
  });

  it("keeps and streams a quiet call without pushing it, until its computer rings it (the quiet summary)", async () => {
    await using relay = await pushRelay();
    const { computer, phone, phonePush, tabletPush, computerPush } = await account(relay, 600);
    using stream = new SseClient(relay.url, phone.deviceToken);
    await stream.waitForSynced();
    const quiet = await relay.request("POST", "/v1/daemon/events", {
      token: computer.deviceToken,
      body: eventBody("quiet1", { ring: "quiet" }),
    });
    expect(quiet.status).toBe(201);
    const streamed = await stream.waitFor("call", (data) => data.eventId === "quiet1");
    expect(streamed.data).toMatchObject({ eventId: "quiet1", status: "pending", ring: "quiet" });
    const listed = await relay.request("GET", "/v1/calls/quiet1", { token: phone.deviceToken });
    expect(listed.body).toMatchObject({ eventId: "quiet1", ring: "quiet" });

    // A ringing call posted after it is pushed; the quiet one before it never was.
    await postEvent(relay, computer.deviceToken, "loud1");
    await relay.pushService.waitFor(
      () => (callsOf(relay, phonePush).some((message) => message.eventId === "loud1") ? true : undefined),
      "the ringing call's push",
    );
    const loud = await stream.waitFor("call", (data) => data.eventId === "loud1");
    expect(loud.data.ring).toBeUndefined();
    await relay.advance(2 * MINUTE_MS);
    for (const subscription of [phonePush, tabletPush]) {
      expect(callsOf(relay, subscription).map((message) => message.eventId)).not.toContain("quiet1");
    }

    const rung = await relay.request("POST", "/v1/daemon/events/quiet1/push", {
      token: computer.deviceToken,
    });
    expect(rung).toMatchObject({ status: 200, body: { eventId: "quiet1", devices: 2 } });
    for (const subscription of [phonePush, tabletPush]) {
      await relay.pushService.waitFor(
        () =>
          callsOf(relay, subscription).some((message) => message.eventId === "quiet1") ? true : undefined,
        "the quiet call's push",
      );
    }
    expect(callsOf(relay, computerPush)).toHaveLength(0);
  });

  it.each(["rejected", "acknowledged"])("stops pushing a call once it is %s", async (status) => {
    await using relay = await pushRelay();
    const { computer, tablet, phonePush } = await account(relay);
    await postEvent(relay, computer.deviceToken, "ev1");
    await relay.pushService.waitFor(() => relay.pushService.delivered(phonePush.id)[0], "the first push");
    await relay.request("POST", "/v1/calls/ev1/status", { token: tablet.deviceToken, body: { status } });
    await relay.advance(2 * MINUTE_MS);
    expect(callsOf(relay, phonePush)).toHaveLength(1);
    expect(messagesOf(relay, phonePush)[1]).toEqual({ type: "call-settled", eventId: "ev1", status });
  });

  it("stops pushing a call when it expires", async () => {
    await using relay = await pushRelay({ callExpiryMs: 90 * SECOND_MS });
    const { computer, phonePush } = await account(relay);
    await postEvent(relay, computer.deviceToken, "ev1");
    await relay.pushService.waitFor(() => relay.pushService.delivered(phonePush.id)[0], "the first push");
    await relay.advance(60 * SECOND_MS);
    const ttls = relay.pushService.delivered(phonePush.id).map((push) => push.ttl);
    expect(ttls).toEqual([90, 30]);
    await relay.advance(60 * SECOND_MS);
    await relay.server.relay.sweep();
    await relay.advance(60 * SECOND_MS);
    expect(callsOf(relay, phonePush)).toHaveLength(2);
    // The expiry closes the call's notification on the devices that were pushed it.
    expect(messagesOf(relay, phonePush)[2]).toEqual({
      type: "call-settled",
      eventId: "ev1",
      status: "expired",
    });
  });

  it("delivers the event on SSE and answers the daemon while the push service has not answered", async () => {
    await using relay = await pushRelay();
    const { computer, phone, phonePush } = await account(relay);
    let release = () => {};
    const hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    relay.pushService.script(phonePush.id, { status: 201, hold });
    using stream = new SseClient(relay.url, phone.deviceToken);
    await stream.waitForSynced();
    await postEvent(relay, computer.deviceToken, "ev1");
    await stream.waitFor("call", (data) => data.eventId === "ev1");
    expect(relay.pushService.delivered(phonePush.id)).toEqual([]);
    release();
    await relay.pushService.waitFor(() => relay.pushService.delivered(phonePush.id)[0], "the held push");
  });
});

describe("Web Push: a call that stops ringing", () => {
  /** A call ringing on both phones: each has had its first push. */
  async function ringing(relay: PushRelay) {
    const devices = await account(relay, 60);
    await postEvent(relay, devices.computer.deviceToken, "ev1");
    await relay.pushService.waitFor(() => {
      const firsts = [devices.phonePush, devices.tabletPush].map((push) => callsOf(relay, push)[0]);
      return firsts.every(Boolean) ? true : undefined;
    }, "the first push on both phones");
    return devices;
  }

  it("tells the other pushed device with a decrypted call-settled push under the call's topic, and nobody else", async () => {
    await using relay = await pushRelay();
    const { phone, tablet, phonePush, tabletPush, computerPush } = await ringing(relay);
    const answered = await relay.request("POST", "/v1/calls/ev1/status", {
      token: phone.deviceToken,
      body: { status: "answered" },
    });
    expect(answered.body).toEqual({ eventId: "ev1", status: "answered", won: true });
    await relay.server.relay.pushDue();
    const [ringPush, settledPush] = relay.pushService.delivered(tabletPush.id);
    expect(settledPush).toMatchObject({
      status: 201,
      urgency: "normal",
      ttl: PUSH_SETTLED_TTL_SECONDS,
      contentEncoding: "aes128gcm",
      problem: null,
      topic: ringPush?.topic,
    });
    expect(JSON.parse(settledPush?.payload ?? "")).toEqual({
      type: "call-settled",
      eventId: "ev1",
      status: "answered",
    });
    expect(messagesOf(relay, phonePush).map((message) => message.type)).toEqual(["call"]);
    expect(relay.pushService.received.filter((push) => push.subscriptionId === computerPush.id)).toEqual([]);
    expect(relay.logs).toContainEqual(`push settled sent event=ev1 device=${tablet.deviceId} status=201`);

    // The answering device hangs up later: the others were told once, and nothing rings again.
    await relay.request("POST", "/v1/calls/ev1/status", {
      token: phone.deviceToken,
      body: { status: "ended" },
    });
    await relay.advance(5 * MINUTE_MS);
    expect(messagesOf(relay, tabletPush).map((message) => message.type)).toEqual(["call", "call-settled"]);
    expect(messagesOf(relay, phonePush).map((message) => message.type)).toEqual(["call"]);
  });

  it("removes the subscription when the push service answers the settled push with 410", async () => {
    await using relay = await pushRelay();
    const { phone, tablet, tabletPush } = await ringing(relay);
    relay.pushService.script(tabletPush.id, { status: 410 });
    await relay.request("POST", "/v1/calls/ev1/status", {
      token: phone.deviceToken,
      body: { status: "rejected" },
    });
    await relay.server.relay.pushDue();
    expect(
      relay.pushService.received.filter((push) => push.subscriptionId === tabletPush.id).at(-1),
    ).toMatchObject({
      status: 410,
      payload: JSON.stringify({ type: "call-settled", eventId: "ev1", status: "rejected" }),
    });
    expect(await relay.store.findPushSubscription(tablet.deviceId)).toBeNull();
    expect(relay.logs).toContainEqual(
      `push subscription gone event=ev1 device=${tablet.deviceId} status=410 (removed)`,
    );
  });

  it("tries a settled push once: a failing push service is not asked again", async () => {
    await using relay = await pushRelay();
    const { phone, tablet, tabletPush } = await ringing(relay);
    relay.pushService.script(tabletPush.id, { status: 503 });
    await relay.request("POST", "/v1/calls/ev1/status", {
      token: phone.deviceToken,
      body: { status: "ended" },
    });
    await relay.server.relay.pushDue();
    await relay.advance(10 * MINUTE_MS);
    const answers = relay.pushService.received.filter((push) => push.subscriptionId === tabletPush.id);
    expect(answers.map((push) => push.status)).toEqual([201, 503]);
    expect(relay.logs).toContainEqual(
      `push settled not sent event=ev1 device=${tablet.deviceId} status=503 (not retried)`,
    );
    expect(await relay.store.findPushSubscription(tablet.deviceId)).not.toBeNull();
  });

  it("answers the status write while the push service holds the settled push", async () => {
    await using relay = await pushRelay();
    const { phone, tablet, tabletPush } = await ringing(relay);
    let release = () => {};
    const hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    relay.pushService.script(tabletPush.id, { status: 201, hold });
    using stream = new SseClient(relay.url, tablet.deviceToken);
    await stream.waitForSynced();
    const answered = await relay.request("POST", "/v1/calls/ev1/status", {
      token: phone.deviceToken,
      body: { status: "answered" },
    });
    expect(answered.status).toBe(200);
    expect(answered.body).toMatchObject({ status: "answered", won: true });
    await stream.waitFor("call-status", (data) => data.eventId === "ev1" && data.status === "answered");
    expect(callsOf(relay, tabletPush)).toHaveLength(1);
    expect(relay.pushService.delivered(tabletPush.id)).toHaveLength(1);
    release();
    await relay.pushService.waitFor(
      () => messagesOf(relay, tabletPush).find((message) => message.type === "call-settled"),
      "the held settled push",
    );
  });
});

describe("Web Push: push-service answers", () => {
  it("removes the subscription on 410 Gone (and on 404) and pushes nothing more to it", async () => {
    await using relay = await pushRelay();
    const { computer, phone, tablet, phonePush, tabletPush } = await account(relay);
    relay.pushService.script(phonePush.id, { status: 410 });
    relay.pushService.script(tabletPush.id, { status: 404 });
    await postEvent(relay, computer.deviceToken, "ev1");
    await relay.pushService.waitFor(
      (received) => (received.filter((push) => push.status >= 400).length === 2 ? true : undefined),
      "both refusals",
    );
    await relay.server.relay.pushDue();
    await expect.poll(() => relay.store.findPushSubscription(phone.deviceId)).toBeNull();
    await expect.poll(() => relay.store.findPushSubscription(tablet.deviceId)).toBeNull();
    const state = await relay.request("GET", "/v1/push/subscription", { token: phone.deviceToken });
    expect(state.body.subscribed).toBe(false);
    expect(relay.logs).toContainEqual(
      expect.stringContaining(`push subscription gone event=ev1 device=${phone.deviceId} status=410`),
    );
    await postEvent(relay, computer.deviceToken, "ev2");
    await relay.advance(5 * MINUTE_MS);
    expect(relay.pushService.received).toHaveLength(2);
  });

  it("keeps a newer subscription when the push service says 410 for the old endpoint", async () => {
    await using relay = await pushRelay();
    const { computer, phone, phonePush } = await account(relay);
    let release = () => {};
    const hold = new Promise<void>((resolve) => {
      release = resolve;
    });
    relay.pushService.script(phonePush.id, { status: 410, hold });
    await postEvent(relay, computer.deviceToken, "ev1");
    const renewed = relay.pushService.subscribe();
    await relay.request("PUT", "/v1/push/subscription", { token: phone.deviceToken, body: renewed });
    release();
    await expect
      .poll(() => relay.logs.find((line) => line.startsWith("push subscription gone")))
      .toBe(`push subscription gone event=ev1 device=${phone.deviceId} status=410 (already replaced)`);
    expect((await relay.store.findPushSubscription(phone.deviceId))?.endpoint).toBe(renewed.endpoint);
  });

  it("honours 429 with Retry-After: nothing before it, the retry after it", async () => {
    await using relay = await pushRelay();
    const { computer, phone, phonePush } = await account(relay, 60);
    relay.pushService.script(phonePush.id, { status: 429, headers: { "Retry-After": "120" } });
    await postEvent(relay, computer.deviceToken, "ev1");
    await relay.pushService.waitFor(
      (received) => received.find((push) => push.subscriptionId === phonePush.id && push.status === 429),
      "the 429",
    );
    await expect
      .poll(() =>
        relay.logs.find((line) => line.includes(`push deferred event=ev1 device=${phone.deviceId}`)),
      )
      .toContain("status=429 retry in 120s");
    // The repeat at 60 s does not override the push service's 120 s.
    await relay.advance(60 * SECOND_MS);
    await relay.advance(59 * SECOND_MS);
    expect(relay.pushService.delivered(phonePush.id)).toEqual([]);
    await relay.advance(1 * SECOND_MS);
    expect(callsOf(relay, phonePush).map((message) => message.attempt)).toEqual([2]);
    // Back on the device's schedule after a success.
    await relay.advance(60 * SECOND_MS);
    expect(callsOf(relay, phonePush).map((message) => message.attempt)).toEqual([2, 3]);
  });

  it("retries a 5xx with exponential backoff", async () => {
    await using relay = await pushRelay();
    const { computer, phonePush } = await account(relay, 60);
    relay.pushService.script(phonePush.id, { status: 503 }, { status: 500 }, { status: 502 });
    await postEvent(relay, computer.deviceToken, "ev1");
    await relay.pushService.waitFor(
      (received) => received.find((push) => push.subscriptionId === phonePush.id && push.status === 503),
      "the 503",
    );
    await expect.poll(() => relay.logs.some((line) => line.includes("status=503 retry in 1s"))).toBe(true);
    await relay.advance(1 * SECOND_MS);
    await relay.advance(2 * SECOND_MS);
    await relay.advance(3 * SECOND_MS);
    expect(relay.pushService.delivered(phonePush.id)).toEqual([]);
    await relay.advance(1 * SECOND_MS);
    expect(
      relay.pushService.received
        .filter((push) => push.subscriptionId === phonePush.id)
        .map((push) => push.status),
    ).toEqual([503, 500, 502, 201]);
  });

  it("logs another 4xx with the device id and drops that push, keeping the subscription", async () => {
    await using relay = await pushRelay();
    const { computer, phone, phonePush } = await account(relay, 60);
    relay.pushService.script(phonePush.id, { status: 400 });
    await postEvent(relay, computer.deviceToken, "ev1");
    await relay.pushService.waitFor(
      (received) => received.find((push) => push.subscriptionId === phonePush.id && push.status === 400),
      "the 400",
    );
    await expect
      .poll(() => relay.logs.find((line) => line.startsWith("push refused")))
      .toBe(`push refused event=ev1 device=${phone.deviceId} status=400 (dropped)`);
    await relay.advance(5 * MINUTE_MS);
    expect(relay.pushService.received.filter((push) => push.subscriptionId === phonePush.id)).toHaveLength(1);
    expect(await relay.store.findPushSubscription(phone.deviceId)).not.toBeNull();
    await postEvent(relay, computer.deviceToken, "ev2");
    await relay.pushService.waitFor(
      () => relay.pushService.delivered(phonePush.id)[0],
      "the next call's push",
    );
  });

  it("logs no endpoint, subscription key or VAPID private key", async () => {
    await using relay = await pushRelay();
    const { computer, phonePush } = await account(relay);
    relay.pushService.script(phonePush.id, { status: 429, headers: { "Retry-After": "1" } }, { status: 410 });
    await postEvent(relay, computer.deviceToken, "ev1");
    await relay.pushService.waitFor((received) => received.find((push) => push.status === 429), "the 429");
    await expect.poll(() => relay.logs.some((line) => line.startsWith("push deferred"))).toBe(true);
    await relay.advance(2 * SECOND_MS);
    await expect.poll(() => relay.logs.some((line) => line.startsWith("push subscription gone"))).toBe(true);
    const { privateKey } = await relay.store.vapidKeys({ publicKey: "x", privateKey: "y" });
    const logs = relay.logs.join("\n");
    for (const secret of [
      privateKey,
      phonePush.endpoint,
      phonePush.id,
      phonePush.keys.auth,
      phonePush.keys.p256dh,
    ]) {
      expect(logs).not.toContain(secret);
    }
  });
});
