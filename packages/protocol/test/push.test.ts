import { describe, expect, it } from "vitest";
import { PushMessage, PushSubscriptionRequest } from "../src/index.js";

const p256dh = `B${"A".repeat(86)}`;
const auth = "A".repeat(22);

describe("push subscription request", () => {
  it("takes a browser's PushSubscription.toJSON() and gives repeatSeconds its default", () => {
    const parsed = PushSubscriptionRequest.parse({
      endpoint: "https://fcm.googleapis.com/fcm/send/abc",
      expirationTime: null,
      keys: { p256dh, auth },
    });
    expect(parsed.repeatSeconds).toBe(60);
    expect(parsed.keys).toEqual({ p256dh, auth });
  });

  it("drops base64 padding from the keys", () => {
    const parsed = PushSubscriptionRequest.parse({
      endpoint: "https://push.example/x",
      keys: { p256dh: `${p256dh}=`, auth: `${auth}==` },
    });
    expect(parsed.keys).toEqual({ p256dh, auth });
  });

  it.each([
    ["a plain-http endpoint", { endpoint: "http://push.example/x" }],
    ["a short p256dh key", { keys: { p256dh: "AAAA", auth } }],
    ["an auth secret that is not base64url", { keys: { p256dh, auth: `${"A".repeat(21)}+` } }],
    ["a repeat below the minimum", { repeatSeconds: 5 }],
    ["a repeat that is not whole", { repeatSeconds: 60.5 }],
  ])("refuses %s", (_, change) => {
    const body = { endpoint: "https://push.example/x", keys: { p256dh, auth }, ...change };
    expect(PushSubscriptionRequest.safeParse(body).success).toBe(false);
  });
});

describe("push message", () => {
  const message = {
    type: "call",
    eventId: "ev1",
    seq: 3,
    source: "codex",
    occurredAt: "2026-01-01T09:00:00.000Z",
    receivedAt: "2026-01-01T09:00:01.000Z",
    taskId: null,
    fromDeviceId: "dev_pc",
    expiresAt: "2026-01-02T09:00:01.000Z",
    attempt: 1,
  };

  it("holds routing plaintext only and refuses any other field", () => {
    expect(PushMessage.parse(message)).toEqual(message);
    expect(PushMessage.safeParse({ ...message, brief: "The tests pass." }).success).toBe(false);
  });

  it("tells a call push from a settled push by its type", () => {
    const parsed = PushMessage.parse(message);
    expect(parsed.type === "call" && parsed.attempt).toBe(1);
    const settled = { type: "call-settled", eventId: "ev1", status: "answered" };
    expect(PushMessage.parse(settled)).toEqual(settled);
  });

  it.each(["answered", "rejected", "acknowledged", "ended", "expired"])(
    "takes a call settled as %s",
    (status) => {
      expect(PushMessage.safeParse({ type: "call-settled", eventId: "ev1", status }).success).toBe(true);
    },
  );

  it.each([
    ["a pending status", { status: "pending" }],
    ["an unknown status", { status: "forgotten" }],
    ["no event id", { eventId: undefined }],
    ["text beside the routing data", { brief: "The tests pass." }],
    ["a call's fields", { seq: 3 }],
  ])("refuses a settled push with %s", (_, change) => {
    const settled = { type: "call-settled", eventId: "ev1", status: "ended", ...change };
    expect(PushMessage.safeParse(settled).success).toBe(false);
  });

  it("refuses a message of an unknown type", () => {
    expect(PushMessage.safeParse({ ...message, type: "ring" }).success).toBe(false);
  });
});
