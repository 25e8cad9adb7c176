import { describe, expect, it } from "vitest";
import { eventBody } from "./support/in-process-relay.js";
import { type SocketRelay, socketRelay } from "./support/socket-relay.js";
import { SseClient } from "./support/sse-client.js";

/** A computer, a phone and a browser of one account, the two devices' streams open and synced. */
async function twoListeningDevices(relay: SocketRelay) {
  const computer = await relay.signUp("computer");
  const phone = await relay.pair(computer.deviceToken, "phone");
  const browser = await relay.pair(computer.deviceToken, "browser");
  const phoneStream = new SseClient(relay.url, phone.deviceToken);
  const browserStream = new SseClient(relay.url, browser.deviceToken);
  const close = () => {
    phoneStream.close();
    browserStream.close();
  };
  await Promise.all([phoneStream.waitForSynced(), browserStream.waitForSynced()]).catch((error: unknown) => {
    close();
    throw error;
  });
  return { computer, phone, browser, phoneStream, browserStream, [Symbol.dispose]: close };
}

describe("SSE stream over a real socket", () => {
  it("rings every device of the account, and tells the others when one answers", async () => {
    await using relay = await socketRelay();
    using devices = await twoListeningDevices(relay);
    const { computer, phone, phoneStream, browserStream } = devices;

    await relay.request("POST", "/v1/daemon/events", { token: computer.deviceToken, body: eventBody("ev1") });
    const [onPhone, onBrowser] = await Promise.all([
      phoneStream.waitFor("call", (data) => data.eventId === "ev1"),
      browserStream.waitFor("call", (data) => data.eventId === "ev1"),
    ]);
    expect(onPhone.data).toEqual(onBrowser.data);
    expect(onPhone).toMatchObject({
      id: "1",
      data: { seq: 1, status: "pending", fromDeviceId: computer.deviceId },
    });

    const answered = await relay.request("POST", "/v1/calls/ev1/status", {
      token: phone.deviceToken,
      body: { status: "answered" },
    });
    expect(answered.status).toBe(200);
    const told = await browserStream.waitFor("call-status", (data) => data.eventId === "ev1");
    expect(told).toMatchObject({ id: "2", data: { seq: 2, status: "answered", deviceId: phone.deviceId } });
  });

  it("lets exactly one of two simultaneous answers win, and both streams learn who", async () => {
    await using relay = await socketRelay();
    using devices = await twoListeningDevices(relay);
    const { computer, phone, browser, phoneStream, browserStream } = devices;
    await relay.request("POST", "/v1/daemon/events", { token: computer.deviceToken, body: eventBody("ev1") });
    await Promise.all([phoneStream.waitFor("call"), browserStream.waitFor("call")]);

    const answer = (token: string) =>
      relay.request("POST", "/v1/calls/ev1/status", { token, body: { status: "answered" } });
    const results = await Promise.all([answer(phone.deviceToken), answer(browser.deviceToken)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = results[0]?.status === 200 ? phone.deviceId : browser.deviceId;
    for (const stream of [phoneStream, browserStream]) {
      const change = await stream.waitFor("call-status");
      expect(change.data.deviceId).toBe(winner);
    }
    // A call posted after both answers were settled: a stream that has it has every change made before it.
    await relay.request("POST", "/v1/daemon/events", { token: computer.deviceToken, body: eventBody("ev2") });
    for (const stream of [phoneStream, browserStream]) {
      await stream.waitFor("call", (data) => data.eventId === "ev2");
      expect(stream.of("call-status")).toHaveLength(1);
    }
  });

  it("sends a fresh connection every open call and nothing else", async () => {
    await using relay = await socketRelay();
    const computer = await relay.signUp("computer");
    const phone = await relay.pair(computer.deviceToken, "phone");
    const post = (eventId: string) =>
      relay.request("POST", "/v1/daemon/events", { token: computer.deviceToken, body: eventBody(eventId) });
    const setStatus = (eventId: string, status: string) =>
      relay.request("POST", `/v1/calls/${eventId}/status`, { token: phone.deviceToken, body: { status } });
    await post("ended");
    await post("answered");
    await post("ringing");
    await setStatus("ended", "rejected");
    await setStatus("answered", "answered");

    using stream = new SseClient(relay.url, phone.deviceToken);
    const synced = await stream.waitFor("synced");
    expect(synced).toMatchObject({ id: "5", data: { seq: 5 } });
    expect(stream.events.map((e) => [e.type, e.data.eventId, e.data.status])).toEqual([
      ["call", "answered", "answered"],
      ["call", "ringing", "pending"],
      ["synced", undefined, undefined],
    ]);
  });

  it("resumes from Last-Event-ID: a call ended while away arrives as its status change only", async () => {
    await using relay = await socketRelay();
    const computer = await relay.signUp("computer");
    const phone = await relay.pair(computer.deviceToken, "phone");
    const browser = await relay.pair(computer.deviceToken, "browser");
    await relay.request("POST", "/v1/daemon/events", {
      token: computer.deviceToken,
      body: eventBody("seen"),
    });
    await relay.request("POST", "/v1/daemon/events", {
      token: computer.deviceToken,
      body: eventBody("missed"),
    });
    await relay.request("POST", "/v1/daemon/events", {
      token: computer.deviceToken,
      body: eventBody("pending"),
    });
    await relay.request("POST", "/v1/calls/seen/status", {
      token: phone.deviceToken,
      body: { status: "rejected" },
    });
    await relay.request("POST", "/v1/calls/missed/status", {
      token: phone.deviceToken,
      body: { status: "ended" },
    });

    using stream = new SseClient(relay.url, browser.deviceToken, { lastEventId: 1 });
    await stream.waitFor("synced");
    expect(stream.events.map((e) => [e.id, e.type, e.data.eventId, e.data.status])).toEqual([
      ["3", "call", "pending", "pending"],
      ["4", "call-status", "seen", "rejected"],
      ["5", "call-status", "missed", "ended"],
      ["5", "synced", undefined, undefined],
    ]);
  });

  it("closes a stream at its maximum duration and the client resumes without loss or doubling", async () => {
    await using relay = await socketRelay({ streamMaxMs: 60_000 });
    const computer = await relay.signUp("computer");
    const phone = await relay.pair(computer.deviceToken, "phone");
    using stream = new SseClient(relay.url, phone.deviceToken);
    await stream.waitForSynced();
    await relay.request("POST", "/v1/daemon/events", {
      token: computer.deviceToken,
      body: eventBody("before"),
    });
    await stream.waitFor("call");
    relay.clock.advance(60_000);
    relay.server.relay.runtime.hub.tick({ maxDurationMs: 60_000, stallMs: 60_000 });
    await relay.request("POST", "/v1/daemon/events", {
      token: computer.deviceToken,
      body: eventBody("during"),
    });
    await stream.waitForSynced(2);
    await stream.waitFor("call", (data) => data.eventId === "during");
    expect(stream.opens).toBe(2);
    expect(stream.of("call").map((e) => e.data.eventId)).toEqual(["before", "during"]);
  });

  it("sends heartbeat comments", async () => {
    await using relay = await socketRelay({ heartbeatMs: 50 });
    const computer = await relay.signUp("computer");
    const response = await fetch(new URL("/v1/stream", relay.url), {
      headers: { Authorization: `Bearer ${computer.deviceToken}` },
    });
    expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (!text.includes(": heartbeat")) {
      const { value } = await reader.read();
      text += decoder.decode(value);
    }
    expect(text).toMatch(/^retry: 100\n\n/);
    await reader.cancel();
  });

  it("closes a removed device's stream at once, and its reconnect gets 401", async () => {
    await using relay = await socketRelay();
    const computer = await relay.signUp("computer");
    const phone = await relay.pair(computer.deviceToken, "phone");
    using stream = new SseClient(relay.url, phone.deviceToken);
    await stream.waitForSynced();
    const removed = await relay.request("DELETE", `/v1/devices/${phone.deviceId}`, {
      token: computer.deviceToken,
    });
    expect(removed.status).toBe(200);
    const notice = await stream.waitFor("device-removed");
    expect(notice.data).toEqual({ deviceId: phone.deviceId });
    await stream.waitUntil(() => (stream.failures.includes(401) ? true : undefined), "a 401 on reconnect");
    expect(stream.isClosed).toBe(true);
  });

  it("shows a device as online while its stream is open", async () => {
    await using relay = await socketRelay();
    const computer = await relay.signUp("computer");
    const phone = await relay.pair(computer.deviceToken, "phone");
    const isPhoneOnline = async () => {
      const list = await relay.request("GET", "/v1/devices", { token: computer.deviceToken });
      return list.body.devices.find((d: { id: string }) => d.id === phone.deviceId).online as boolean;
    };
    expect(await isPhoneOnline()).toBe(false);
    const stream = new SseClient(relay.url, phone.deviceToken);
    await stream.waitForSynced();
    expect(await isPhoneOnline()).toBe(true);
    stream.close();
    await expect.poll(isPhoneOnline).toBe(false);
  });
});
