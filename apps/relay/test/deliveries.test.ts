import { CallDelivery, RELAY_SMALL_BODY_MAX_BYTES, RELAY_SSE_EVENTS } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { eventBody } from "./support/in-process-relay.js";
import { pushRelay } from "./support/push-relay.js";
import { type SocketRelay, socketRelay } from "./support/socket-relay.js";
import { readBacklog } from "./support/sse-backlog.js";
import { type ReceivedEvent, SseClient } from "./support/sse-client.js";

/** A computer that posted `ev1` (seq 1), and a phone and a browser of the same account. */
async function ringing(relay: SocketRelay) {
  const computer = await relay.signUp("computer");
  const phone = await relay.pair(computer.deviceToken, "phone");
  const browser = await relay.pair(computer.deviceToken, "browser");
  const posted = await relay.request("POST", "/v1/daemon/events", {
    token: computer.deviceToken,
    body: eventBody("ev1"),
  });
  expect(posted.status).toBe(201);
  const report = (token: string | undefined, body: unknown, eventId = "ev1") =>
    relay.request("POST", `/v1/calls/${eventId}/deliveries`, { ...(token ? { token } : {}), body });
  return { computer, phone, browser, report };
}

const deliveriesIn = (events: readonly ReceivedEvent[]) =>
  events.filter((event) => event.type === RELAY_SSE_EVENTS.callDelivery);

describe("delivery outcomes: POST /v1/calls/:eventId/deliveries", () => {
  it("records the device's outcome with its name and time, and answers a repeat with the first record", async () => {
    await using relay = await socketRelay();
    const { phone, browser, report } = await ringing(relay);
    using browserStream = new SseClient(relay.url, browser.deviceToken);
    await browserStream.waitForSynced();

    const shown = await report(phone.deviceToken, { outcome: "shown" });
    expect(shown.status).toBe(200);
    const first = {
      seq: 2,
      eventId: "ev1",
      deviceId: phone.deviceId,
      deviceName: "my phone",
      deviceKind: "phone",
      outcome: "shown",
      at: new Date(relay.clock.now()).toISOString(),
    };
    expect(shown.body).toEqual(first);
    expect(CallDelivery.parse(shown.body)).toEqual(first);

    relay.clock.advance(5_000);
    const repeat = await report(phone.deviceToken, { outcome: "shown" });
    expect(repeat.status).toBe(200);
    expect(repeat.body).toEqual(first);

    const opened = await report(phone.deviceToken, { outcome: "opened" });
    expect(opened.body).toMatchObject({
      seq: 3,
      outcome: "opened",
      at: new Date(relay.clock.now()).toISOString(),
    });
    // The repeat sent nothing: the stream has the two records, in order, and nothing between them.
    await browserStream.waitFor(RELAY_SSE_EVENTS.callDelivery, (data) => data.outcome === "opened");
    expect(deliveriesIn(browserStream.events).map((event) => [event.id, event.data])).toEqual([
      ["2", first],
      ["3", opened.body],
    ]);
    expect(relay.logs).toContainEqual(`call shown event=ev1 device=${phone.deviceId} seq=2`);
  });

  it("sends each new record to every device's stream, and replays it to a stream resuming with Last-Event-ID", async () => {
    await using relay = await socketRelay();
    const { computer, phone, browser, report } = await ringing(relay);
    using computerStream = new SseClient(relay.url, computer.deviceToken);
    using phoneStream = new SseClient(relay.url, phone.deviceToken);
    await Promise.all([computerStream.waitForSynced(), phoneStream.waitForSynced()]);

    const shown = await report(browser.deviceToken, { outcome: "shown" });
    for (const stream of [computerStream, phoneStream]) {
      const received = await stream.waitFor(RELAY_SSE_EVENTS.callDelivery);
      expect(received).toEqual({ type: "call-delivery", id: "2", data: shown.body });
    }

    const answered = await relay.request("POST", "/v1/calls/ev1/status", {
      token: phone.deviceToken,
      body: { status: "answered" },
    });
    expect(answered.status).toBe(200);
    const opened = await report(phone.deviceToken, { outcome: "opened" });
    const resumed = await readBacklog(relay.url, browser.deviceToken, 1);
    expect(resumed.map((event) => [event.id, event.type, event.data])).toEqual([
      ["2", "call-delivery", shown.body],
      ["3", "call-status", expect.objectContaining({ status: "answered", deviceId: phone.deviceId })],
      ["4", "call-delivery", opened.body],
      ["4", "synced", { seq: 4 }],
    ]);
    // A fresh connection gets the open call with its history.
    const fresh = await readBacklog(relay.url, browser.deviceToken);
    expect(fresh.map((event) => [event.id, event.type])).toEqual([
      ["1", "call"],
      ["2", "call-delivery"],
      ["4", "call-delivery"],
      ["4", "synced"],
    ]);
  });

  it("refuses hostile input with the relay's codes and records nothing", async () => {
    await using relay = await socketRelay();
    const { computer, phone, report } = await ringing(relay);
    const stranger = await relay.signUp("phone");
    await relay.request("POST", "/v1/daemon/events", {
      token: stranger.deviceToken,
      body: eventBody("theirs"),
    });

    const refusals: [Awaited<ReturnType<typeof report>>, number, string][] = [
      [await report(phone.deviceToken, { outcome: "answered" }), 400, "invalid_request"],
      [await report(phone.deviceToken, { outcome: "delivered" }), 400, "invalid_request"],
      // Only the relay records "pushed".
      [await report(phone.deviceToken, { outcome: "pushed" }), 400, "invalid_request"],
      [await report(phone.deviceToken, {}), 400, "invalid_request"],
      [await report(phone.deviceToken, '{"outcome":"shown"'), 400, "invalid_request"],
      [await report(phone.deviceToken, { outcome: "shown" }, "bad%2Fid"), 400, "invalid_request"],
      [
        await report(phone.deviceToken, {
          outcome: "shown",
          padding: "x".repeat(RELAY_SMALL_BODY_MAX_BYTES),
        }),
        413,
        "payload_too_large",
      ],
      [await report(undefined, { outcome: "shown" }), 401, "device_removed"],
      [await report("not-a-device-token", { outcome: "shown" }), 401, "device_removed"],
      [await report(phone.deviceToken, { outcome: "shown" }, "never-sent"), 404, "call_not_found"],
      // Another account's call, and this account's call reported by another account's device.
      [await report(phone.deviceToken, { outcome: "shown" }, "theirs"), 404, "call_not_found"],
      [await report(stranger.deviceToken, { outcome: "shown" }), 404, "call_not_found"],
    ];
    for (const [response, status, code] of refusals) {
      expect(response.status).toBe(status);
      expect(response.body.error.code).toBe(code);
    }
    expect(refusals[4]?.[0].body.error.message).toBe("The body is not JSON.");

    const backlog = await readBacklog(relay.url, computer.deviceToken, 0);
    expect(deliveriesIn(backlog)).toEqual([]);
    expect(backlog.at(-1)).toMatchObject({ type: "synced", data: { seq: 1 } });
  });

  it("records a report about a call that already ended: it is still the call's history", async () => {
    await using relay = await socketRelay();
    const { computer, phone, report } = await ringing(relay);
    await relay.request("POST", "/v1/calls/ev1/status", {
      token: computer.deviceToken,
      body: { status: "ended" },
    });
    const late = await report(phone.deviceToken, { outcome: "shown" });
    expect(late.status).toBe(200);
    expect(late.body).toMatchObject({ seq: 3, outcome: "shown", deviceId: phone.deviceId });
  });
});

describe("delivery outcomes: pushed, recorded by the relay", () => {
  it("records pushed once when the push service accepts a call's push, and not for a 410 or a settled push", async () => {
    await using relay = await pushRelay();
    const { publicKey } = (await relay.request("GET", "/v1/push/public-key")).body;
    const computer = await relay.signUp("computer");
    const phone = await relay.pair(computer.deviceToken, "phone");
    const tablet = await relay.pair(computer.deviceToken, "browser");
    const subscribe = async (token: string) => {
      const subscription = relay.pushService.subscribe(publicKey);
      await relay.request("PUT", "/v1/push/subscription", { token, body: subscription });
      return subscription;
    };
    const phonePush = await subscribe(phone.deviceToken);
    const tabletPush = await subscribe(tablet.deviceToken);
    relay.pushService.script(tabletPush.id, { status: 410 });
    using computerStream = new SseClient(relay.url, computer.deviceToken);
    await computerStream.waitForSynced();

    await relay.request("POST", "/v1/daemon/events", { token: computer.deviceToken, body: eventBody("ev1") });
    const pushed = await computerStream.waitFor(RELAY_SSE_EVENTS.callDelivery);
    expect(pushed).toEqual({
      type: "call-delivery",
      id: "2",
      data: {
        seq: 2,
        eventId: "ev1",
        deviceId: phone.deviceId,
        deviceName: "my phone",
        deviceKind: "phone",
        outcome: "pushed",
        at: new Date(relay.clock.now()).toISOString(),
      },
    });
    await expect.poll(() => relay.store.findPushSubscription(tablet.deviceId)).toBeNull();

    // The repeat a minute later is accepted too, and the answer's call-settled push: neither adds a record.
    await relay.advance(60_000);
    expect(relay.pushService.delivered(phonePush.id)).toHaveLength(2);
    await relay.request("POST", "/v1/calls/ev1/status", {
      token: computer.deviceToken,
      body: { status: "ended" },
    });
    await relay.server.relay.pushDue();
    expect(
      relay.pushService.delivered(phonePush.id).map((push) => JSON.parse(push.payload ?? "").type),
    ).toEqual(["call", "call", "call-settled"]);
    const backlog = await readBacklog(relay.url, computer.deviceToken, 0);
    expect(deliveriesIn(backlog).map((event) => [event.data.deviceId, event.data.outcome])).toEqual([
      [phone.deviceId, "pushed"],
    ]);
    expect(backlog.at(-1)).toMatchObject({ type: "synced", data: { seq: 3 } });
  });
});
