import { describe, expect, it } from "vitest";
import {
  DeclarativePushMessage,
  PUSH_PAYLOAD_MAX_BYTES,
  PushMessage,
  PushSubscriptionRequest,
  pushMessageOf,
  vapidSubjectCheck,
} from "../src/index.js";

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

  it("carries the call sealed, and nothing readable in its place", () => {
    const sealed = { ...message, sealed: "e2e1.0123456789abcdef.iv.data" };
    expect(PushMessage.parse(sealed)).toEqual(sealed);
    expect(PushMessage.safeParse({ ...message, sealed: "The tests pass." }).success).toBe(false);
  });

  describe("declarative message", () => {
    const declarative = {
      web_push: 8030,
      notification: {
        title: "A call from Ringback",
        body: "Open Ringback to hear it.",
        navigate: "https://ring.example.com/#call=ev1",
        tag: "ringback-call-ev1",
        silent: false,
        requireInteraction: true,
        data: message,
      },
      mutable: true,
    };

    it("wraps the relay's message in notification.data, where pushMessageOf finds it", () => {
      expect(DeclarativePushMessage.parse(declarative)).toEqual(declarative);
      expect(pushMessageOf(declarative)).toEqual(message);
    });

    it("still reads a bare message, as a relay without declarative pushes sends it", () => {
      expect(pushMessageOf(message)).toEqual(message);
    });

    it.each([
      ["another marker", { web_push: 8031 }],
      [
        "a relative navigate address",
        { notification: { ...declarative.notification, navigate: "/#call=ev1" } },
      ],
      ["no title", { notification: { ...declarative.notification, title: "" } }],
      [
        "readable text in data",
        { notification: { ...declarative.notification, data: { ...message, brief: "x" } } },
      ],
    ])("finds no message in one with %s", (_, change) => {
      expect(pushMessageOf({ ...declarative, ...change })).toBeNull();
    });

    it("fits one 4096-byte aes128gcm record", () => {
      expect(PUSH_PAYLOAD_MAX_BYTES).toBe(3993);
    });
  });
});

describe("VAPID contact check", () => {
  it.each([
    ["mailto:ops@ring.example.co.uk", "ok"],
    ["https://ring.sample.dev/contact", "ok"],
    ["mailto:me@localhost", "refused"],
    ["mailto:relay@LOCALHOST", "refused"],
    ["https://localhost:8443", "refused"],
    ["mailto:me@box.localhost", "refused"],
    ["mailto:ringback-relay@example.org", "doubtful"],
    ["mailto:me@printer.local", "doubtful"],
    ["mailto:me@intranet", "doubtful"],
    ["https://10.0.0.2/", "doubtful"],
    ["http://ring.sample.dev", "invalid"],
    ["ops@ring.sample.dev", "invalid"],
  ])("%s is %s", (subject, kind) => {
    expect(vapidSubjectCheck(subject).kind).toBe(kind);
  });

  it("says why Apple refuses a localhost contact", () => {
    const check = vapidSubjectCheck("mailto:me@localhost");
    expect(check.kind === "refused" && check.reason).toContain("403 BadJwtToken");
  });
});
