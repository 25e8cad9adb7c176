import {
  DeclarativePushMessage,
  PUSH_PAYLOAD_MAX_BYTES,
  type PushCallMessage,
  PushMessage,
  pushMessageOf,
} from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { PUSH_WORDS, pushPayload } from "./push-payload.js";

const APP_URL = "https://ring.sample.dev";

function call(eventId: string, sealed?: string): PushCallMessage {
  return {
    type: "call",
    eventId,
    seq: 4,
    source: "claude-code",
    occurredAt: "2026-12-07T01:00:00.000Z",
    receivedAt: "2026-12-07T01:00:01.000Z",
    taskId: null,
    fromDeviceId: "dev_pc",
    expiresAt: "2026-12-08T01:00:01.000Z",
    attempt: 1,
    ...(sealed === undefined ? {} : { sealed }),
  };
}

function sealedOf(chars: number): string {
  return `e2e1.0123456789abcdef.AAAAAAAAAAAAAAAA.${"A".repeat(chars)}`;
}

describe("push payload", () => {
  it("is a declarative message with content-free words, the call sealed inside and a tap that opens it", () => {
    const message = call("claude_s1_p1", sealedOf(1200));
    const payload = DeclarativePushMessage.parse(JSON.parse(pushPayload(message, APP_URL)));
    expect(payload.mutable).toBe(true);
    expect(payload.notification).toMatchObject({
      ...PUSH_WORDS.call,
      navigate: `${APP_URL}/#call=claude_s1_p1`,
      tag: "ringback-call-claude_s1_p1",
      silent: false,
      requireInteraction: true,
    });
    expect(payload.notification.data).toEqual(message);
  });

  it("words a needs-you call as one, by its event id alone", () => {
    const payload = DeclarativePushMessage.parse(JSON.parse(pushPayload(call("needs_abc"), APP_URL)));
    expect(payload.notification.title).toBe(PUSH_WORDS.needsYou.title);
  });

  it("leaves out a sealed call that would not fit one push record: the worker fetches it by id", () => {
    const text = pushPayload(call("claude_s1_p1", sealedOf(PUSH_PAYLOAD_MAX_BYTES - 400)), APP_URL);
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(PUSH_PAYLOAD_MAX_BYTES);
    const message = pushMessageOf(JSON.parse(text));
    expect(message).toEqual(call("claude_s1_p1"));
  });

  it("keeps a sealed call that just fits", () => {
    const room = PUSH_PAYLOAD_MAX_BYTES - Buffer.byteLength(pushPayload(call("e1", sealedOf(0)), APP_URL));
    const text = pushPayload(call("e1", sealedOf(room)), APP_URL);
    expect(Buffer.byteLength(text)).toBe(PUSH_PAYLOAD_MAX_BYTES);
    expect(pushMessageOf(JSON.parse(text))).toMatchObject({ sealed: sealedOf(room) });
  });

  it.each([
    ["claude_s1_p1", "answered", "Taken on another device"],
    ["claude_s1_p1", "expired", "Missed call from Ringback"],
    ["needs_abc", "ended", "An agent no longer needs you"],
  ] as const)(
    "says a settled call %s (%s) silently, in the ringing one's place",
    (eventId, status, title) => {
      const payload = DeclarativePushMessage.parse(
        JSON.parse(pushPayload({ type: "call-settled", eventId, status }, APP_URL)),
      );
      expect(payload.notification).toMatchObject({ title, silent: true, tag: `ringback-call-${eventId}` });
    },
  );

  it("goes bare without the web app's address, as a declarative message must name one", () => {
    const message = call("claude_s1_p1", sealedOf(100));
    expect(PushMessage.parse(JSON.parse(pushPayload(message, null)))).toEqual(message);
  });
});
