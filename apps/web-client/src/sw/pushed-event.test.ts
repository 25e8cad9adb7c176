import { describe, expect, it } from "vitest";
import { pushedEvent } from "./pushed-event.js";
import { testPush } from "./worker-test-fixtures.js";

describe("the call a push carries", () => {
  it("is the relay's ringing call, sealed as the relay holds it", () => {
    const sealed = "e2e1.0123456789abcdef.AAAAAAAAAAAAAAAA.AAAA";
    expect(pushedEvent({ ...testPush("ev1"), sealed })).toEqual({
      seq: 1,
      eventId: "ev1",
      source: "claude-code",
      occurredAt: "2026-03-02T10:00:00.000Z",
      receivedAt: "2026-03-02T10:00:01.000Z",
      taskId: null,
      fromDeviceId: "dev_pc",
      sealed,
      status: "pending",
    });
  });

  it("is null for a call carried by reference: the worker fetches it", () => {
    expect(pushedEvent(testPush("ev1"))).toBeNull();
  });
});
