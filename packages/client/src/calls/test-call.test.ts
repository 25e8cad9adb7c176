import { describe, expect, it } from "vitest";
import { ALWAYS_RING } from "../ring-schedule/ring-schedule.js";
import { type CallEnvironment, EMPTY_CALLS_MODEL, reduceCalls } from "./call-machine.js";
import { isTestCall, TEST_CALL_PREFIX, testCallPayload } from "./test-call.js";

const NOW = new Date("2026-12-07T01:00:00Z");
const env: CallEnvironment = { now: NOW, schedule: ALWAYS_RING, deviceId: "dev_phone", joinedAt: null };

describe("a test call", () => {
  it("rings here at once, and the relay's list of pending calls never ends it (the relay never heard of it)", () => {
    const eventId = `${TEST_CALL_PREFIX}1`;
    const words = { title: "Your first call", spoken: "Hello.", cardTitle: "In a call", cardBody: "Pause." };
    const payload = testCallPayload(eventId, NOW, words, "en-US");
    const routing = {
      eventId,
      source: payload.report.source,
      occurredAt: NOW.toISOString(),
      fromDeviceId: null,
    };
    let model = reduceCalls(EMPTY_CALLS_MODEL, { type: "report-received", routing, payload }, env).model;
    model = reduceCalls(model, { type: "voice-ready", eventId }, env).model;
    expect(model.records[eventId]?.status.state).toBe("ringing");
    model = reduceCalls(model, { type: "pending-calls", eventIds: [] }, env).model;
    expect(model.records[eventId]?.status.state).toBe("ringing");
    expect([isTestCall(eventId), isTestCall("evt_1")]).toEqual([true, false]);
  });
});
