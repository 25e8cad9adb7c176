import { RELAY_EVENT_BODY_MAX_BYTES } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { eventBody, inProcessRelay } from "./support/in-process-relay.js";

const trackerBody = (eventId: string, taskId: string) => eventBody(eventId, { source: "tracker", taskId });

describe("daemon events", () => {
  it("stores a new event with the next seq", async () => {
    await using relay = await inProcessRelay();
    const computer = await relay.signUp();
    const token = computer.deviceToken;
    const first = await relay.request("POST", "/v1/daemon/events", { token, body: eventBody("ev1") });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ eventId: "ev1", seq: 1 });
    const second = await relay.request("POST", "/v1/daemon/events", { token, body: eventBody("ev2") });
    expect(second.body).toEqual({ eventId: "ev2", seq: 2 });
    const call = await relay.request("GET", "/v1/calls/ev1", { token });
    expect(call.body).toEqual({
      seq: 1,
      eventId: "ev1",
      source: "claude-code",
      occurredAt: "2026-01-01T08:59:00.000Z",
      receivedAt: "2026-01-01T09:00:00.000Z",
      taskId: null,
      fromDeviceId: computer.deviceId,
      sealed: eventBody("ev1").sealed,
      status: "pending",
    });
  });

  it("answers a repeated event id with 200 and the same seq", async () => {
    await using relay = await inProcessRelay();
    const { deviceToken: token } = await relay.signUp();
    await relay.request("POST", "/v1/daemon/events", { token, body: eventBody("ev1") });
    const repeat = await relay.request("POST", "/v1/daemon/events", { token, body: eventBody("ev1") });
    expect(repeat.status).toBe(200);
    expect(repeat.body).toEqual({ eventId: "ev1", seq: 1 });
    expect(
      (await relay.request("POST", "/v1/daemon/events", { token, body: eventBody("ev2") })).body.seq,
    ).toBe(2);
  });

  it("answers 409 duplicate_task when another computer already reported the task", async () => {
    await using relay = await inProcessRelay();
    const desk = await relay.signUp("computer");
    const laptop = await relay.pair(desk.deviceToken, "computer");
    const path = "/v1/daemon/tracker-reports";
    const first = await relay.request("POST", path, {
      token: desk.deviceToken,
      body: trackerBody("task-7", "task-7"),
    });
    expect(first.status).toBe(201);
    const second = await relay.request("POST", path, {
      token: laptop.deviceToken,
      body: trackerBody("task-7", "task-7"),
    });
    expect(second.status).toBe(409);
    expect(second.body.error.code).toBe("duplicate_task");
    const renamed = await relay.request("POST", path, {
      token: desk.deviceToken,
      body: trackerBody("other", "task-7"),
    });
    expect(renamed.status).toBe(409);
    const retry = await relay.request("POST", path, {
      token: desk.deviceToken,
      body: trackerBody("task-7", "task-7"),
    });
    expect(retry.status).toBe(200);
    expect((await relay.request("GET", "/v1/calls/task-7", { token: desk.deviceToken })).body.taskId).toBe(
      "task-7",
    );
  });

  it("sends tracker reports to their own path", async () => {
    await using relay = await inProcessRelay();
    const { deviceToken: token } = await relay.signUp();
    const wrongPath = await relay.request("POST", "/v1/daemon/events", {
      token,
      body: trackerBody("t1", "t1"),
    });
    expect(wrongPath.status).toBe(400);
    expect(wrongPath.body.error.code).toBe("invalid_request");
    const noTask = await relay.request("POST", "/v1/daemon/tracker-reports", {
      token,
      body: eventBody("t1", { source: "tracker" }),
    });
    expect(noTask.status).toBe(400);
  });

  it("refuses a body that is not a sealed event", async () => {
    await using relay = await inProcessRelay();
    const { deviceToken: token } = await relay.signUp();
    const plain = await relay.request("POST", "/v1/daemon/events", {
      token,
      body: eventBody("ev1", { sealed: "the report in plaintext" }),
    });
    expect(plain.status).toBe(400);
    expect(plain.body.error.code).toBe("invalid_request");
    expect(plain.body.error.message).not.toContain("plaintext");
  });

  it("accepts a maximum-size report and refuses a bigger body with 413", async () => {
    await using relay = await inProcessRelay();
    const { deviceToken: token } = await relay.signUp();
    const envelope = JSON.stringify(eventBody("big", { sealed: "e2e1." })).length;
    const fits = eventBody("big", {
      sealed: `e2e1.${"A".repeat(RELAY_EVENT_BODY_MAX_BYTES - envelope - 10)}`,
    });
    expect((await relay.request("POST", "/v1/daemon/events", { token, body: fits })).status).toBe(201);
    const tooBig = eventBody("bigger", { sealed: `e2e1.${"A".repeat(RELAY_EVENT_BODY_MAX_BYTES)}` });
    const refused = await relay.request("POST", "/v1/daemon/events", { token, body: tooBig });
    expect(refused.status).toBe(413);
    expect(refused.body.error.code).toBe("payload_too_large");
  });

  it("refuses a streamed body without Content-Length once it passes the limit", async () => {
    await using relay = await inProcessRelay();
    const { deviceToken } = await relay.signUp();
    const chunk = new TextEncoder().encode("A".repeat(64 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent > RELAY_EVENT_BODY_MAX_BYTES) controller.close();
        else controller.enqueue(chunk);
        sent += chunk.length;
      },
    });
    const response = await relay.relay.app.request("/v1/daemon/events", {
      method: "POST",
      headers: { Authorization: `Bearer ${deviceToken}`, "Content-Type": "application/json" },
      body,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe("payload_too_large");
  });

  it("keeps each account's events apart", async () => {
    await using relay = await inProcessRelay();
    const mine = await relay.signUp();
    const theirs = await relay.signUp();
    await relay.request("POST", "/v1/daemon/events", { token: mine.deviceToken, body: eventBody("ev1") });
    expect((await relay.request("GET", "/v1/calls/ev1", { token: theirs.deviceToken })).status).toBe(404);
    const own = await relay.request("POST", "/v1/daemon/events", {
      token: theirs.deviceToken,
      body: eventBody("ev1"),
    });
    expect(own.body).toEqual({ eventId: "ev1", seq: 1 });
  });

  it("logs ids, never the ciphertext", async () => {
    await using relay = await inProcessRelay();
    const { deviceToken: token } = await relay.signUp();
    await relay.request("POST", "/v1/daemon/events", { token, body: eventBody("ev-logged") });
    const logs = relay.logs.join("\n");
    expect(logs).toContain("event stored event=ev-logged");
    expect(logs).not.toContain(eventBody("ev-logged").sealed);
    expect(logs).not.toContain(token);
  });
});
