import { LATE_CALL_THRESHOLD_MS, PERMISSION_WAIT_MS } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { askFor, needsYouFixture, payloadFor, routingFor, secondsAfter, T0 } from "../../test/fixtures.js";
import { NEEDS_YOU_TEXTS } from "../i18n/texts/needs-you.js";
import {
  type CallAction,
  type CallsModel,
  EMPTY_CALLS_MODEL,
  reduceCalls,
  ringingCall,
} from "./call-machine.js";
import type { CallRecord } from "./call-record.js";
import { type CallRecordChange, changeRecords } from "./call-record-changes.js";
import { askProject, decisionProblem, hasStoppedWaiting } from "./needs-you.js";
import { askOutcomesElsewhere, canDecide, needsYouStatus, needsYouStatusText } from "./needs-you-view.js";

const ALWAYS = { isRingingAllowed: () => true };
const EXPIRES = new Date(T0.getTime() + PERMISSION_WAIT_MS);
const t = NEEDS_YOU_TEXTS.en;

/** Runs actions on one device at `now`, from `model`. */
function run(model: CallsModel, now: Date, ...actions: CallAction[]): CallsModel {
  return actions.reduce(
    (current, action) => reduceCalls(current, action, { now, schedule: ALWAYS, deviceId: "phone" }).model,
    model,
  );
}

function received(eventId: string, now: Date, occurredAt: Date = T0): CallsModel {
  const fixture = needsYouFixture(eventId, occurredAt);
  return run(
    EMPTY_CALLS_MODEL,
    now,
    {
      type: "report-received",
      routing: { ...routingFor(fixture), fromDeviceId: "computer" },
      payload: payloadFor(fixture),
    },
    { type: "voice-ready", eventId },
  );
}

function change(record: CallRecord, ...changes: CallRecordChange[]): CallRecord {
  let records: Readonly<Record<string, CallRecord>> = { [record.eventId]: record };
  for (const next of changes) records = changeRecords(records, next, { now: T0, deviceId: "phone" });
  return records[record.eventId] as CallRecord;
}

describe("a needs-you call's ringing follows its ask's expiry, not the 2-minute late-call rule", () => {
  it("rings when learned 4 minutes after it was raised, while the agent still waits", () => {
    const late = new Date(T0.getTime() + 2 * LATE_CALL_THRESHOLD_MS);
    expect(late < EXPIRES).toBe(true);
    expect(ringingCall(received("needs_a", late))?.eventId).toBe("needs_a");
  });

  it("is missed, never rung, when learned after the agent stopped waiting", () => {
    const model = received("needs_b", EXPIRES);
    expect(model.records.needs_b?.status).toMatchObject({ state: "missed", missedReason: "stopped-waiting" });
  });

  it("is missed, not rung, when the agent stopped waiting while its voice was prepared", () => {
    const fixture = needsYouFixture("needs_p", T0);
    const preparing = run(EMPTY_CALLS_MODEL, secondsAfter(T0, 5), {
      type: "report-received",
      routing: routingFor(fixture),
      payload: payloadFor(fixture),
    });
    expect(preparing.records.needs_p?.status.state).toBe("preparing");
    const ready = run(preparing, EXPIRES, { type: "voice-ready", eventId: "needs_p" });
    expect(ready.records.needs_p?.status).toMatchObject({ state: "missed", missedReason: "stopped-waiting" });
  });

  it("stops ringing at the schedule check once the agent stopped waiting", () => {
    const ringing = received("needs_c", secondsAfter(T0, 10));
    expect(ringingCall(ringing)?.eventId).toBe("needs_c");
    const later = run(ringing, EXPIRES, { type: "schedule-check" });
    expect(later.records.needs_c?.status).toMatchObject({ state: "missed", missedReason: "stopped-waiting" });
  });

  it("rings before a finished call that waits in the queue, whatever the issue priority", () => {
    const finished = payloadFor({ eventId: "urgent", occurredAt: T0.toISOString(), priority: "urgent" });
    const ask = needsYouFixture("needs_d");
    const model = run(
      EMPTY_CALLS_MODEL,
      secondsAfter(T0, 5),
      {
        type: "report-received",
        routing: routingFor({ eventId: "urgent", priority: "urgent" }),
        payload: finished,
      },
      { type: "report-received", routing: routingFor(ask), payload: payloadFor(ask) },
      { type: "voice-ready", eventId: "urgent" },
      { type: "voice-ready", eventId: "needs_d" },
    );
    // The finished call rang first (it was ready first, unshown); the ask outranks it and takes its place.
    expect(ringingCall(model)?.eventId).toBe("needs_d");
    expect(model.records.urgent?.status.state).toBe("queued");
  });
});

describe("whether a decision may be sent", () => {
  const answered = () =>
    run(received("needs_e", secondsAfter(T0, 5)), secondsAfter(T0, 6), { type: "answer", eventId: "needs_e" })
      .records.needs_e as CallRecord;

  it("only on a needs-you call in progress here, before the agent stopped waiting", () => {
    const record = answered();
    expect(decisionProblem(record, secondsAfter(T0, 7))).toBeNull();
    expect(decisionProblem(record, EXPIRES)).toBe("stopped-waiting");
    expect(
      decisionProblem({ ...record, status: { ...record.status, state: "ended" } }, secondsAfter(T0, 7)),
    ).toBe("not-in-call");
    expect(decisionProblem({ ...record, payload: payloadFor({ eventId: "x" }) }, T0)).toBe("not-needs-you");
    expect(decisionProblem({ ...record, fromDeviceId: null }, secondsAfter(T0, 7))).toBe("no-computer");
  });

  it("once: again only after the computer refused the first", () => {
    const sent = change(answered(), {
      type: "verdict-sent",
      eventId: "needs_e",
      verdict: { replyId: "r_1", verdict: "allow", reason: null },
      status: "queued",
    });
    expect(decisionProblem(sent, secondsAfter(T0, 8))).toBe("already-decided");
    const refused = change(sent, {
      type: "reply-status",
      eventId: "needs_e",
      replyId: "r_1",
      delivery: { status: "failed", reason: "already decided", at: T0.toISOString() },
    });
    expect(decisionProblem(refused, secondsAfter(T0, 9))).toBeNull();
  });

  it("knows when the agent stops waiting, and the project it asks from", () => {
    const record = answered();
    expect(hasStoppedWaiting(record, new Date(EXPIRES.getTime() - 1))).toBe(false);
    expect(hasStoppedWaiting(record, EXPIRES)).toBe(true);
    expect(askProject(record)).toBe("project");
    expect(askFor(T0).expiresAt).toBe(EXPIRES.toISOString());
  });
});

describe("where a needs-you call's decision stands, as the screens say it", () => {
  const record = () => received("needs_f", secondsAfter(T0, 5)).records.needs_f as CallRecord;
  const at = secondsAfter(T0, 30);
  const text = (target: CallRecord, deviceId = "phone", now = at) => {
    const status = needsYouStatus(target, deviceId, now);
    return status && { kind: status.kind, text: needsYouStatusText(status, t), canDecide: canDecide(status) };
  };
  const named = (target: CallRecord, deviceId: string, deviceName: string) =>
    change(target, {
      type: "delivery-received",
      delivery: {
        seq: 1,
        eventId: target.eventId,
        deviceId,
        deviceName,
        outcome: "shown",
        at: T0.toISOString(),
      },
    });

  it("waits with live buttons, then says the agent stopped waiting and turns them off", () => {
    expect(text(record())).toEqual({ kind: "waiting", text: "", canDecide: true });
    expect(text(record(), "phone", EXPIRES)).toEqual({
      kind: "stopped-waiting",
      text: "The agent stopped waiting",
      canDecide: false,
    });
  });

  it("follows this device's decision: sending, then allowed on this device, or refused with the computer's reason", () => {
    const sent = change(named(record(), "phone", "Pixel"), {
      type: "verdict-sent",
      eventId: "needs_f",
      verdict: { replyId: "r_2", verdict: "allow", reason: null },
      status: "queued",
    });
    expect(text(sent)).toEqual({ kind: "sending", text: "Sending: allow once…", canDecide: false });
    const settle = (status: string, reason: string | null) =>
      change(sent, {
        type: "reply-status",
        eventId: "needs_f",
        replyId: "r_2",
        delivery: { status, reason, at: T0.toISOString() },
      });
    expect(text(settle("delivered", null))).toEqual({
      kind: "decided",
      text: "Allowed on Pixel",
      canDecide: false,
    });
    expect(text(settle("failed", "already decided"))).toEqual({
      kind: "refused",
      text: "Not taken: already decided",
      canDecide: true,
    });
    // The decision and its delivery stay with the record (stored as content and status).
    expect(settle("delivered", null).verdict).toMatchObject({
      replyId: "r_2",
      verdict: "allow",
      reason: null,
    });
  });

  it("on another device: who answered, by name when the relay gave it, and when the decision reached the agent", () => {
    const elsewhere = run(
      { records: { needs_f: named(record(), "tablet", "Tablet") }, answeredIds: [] },
      at,
      { type: "remote-status", eventId: "needs_f", status: "answered", deviceId: "tablet" },
    ).records.needs_f as CallRecord;
    const announced = change(elsewhere, {
      type: "answer-announced",
      change: { seq: 2, eventId: "needs_f", status: "answered", deviceId: "tablet", at: T0.toISOString() },
    });
    expect(text(announced)).toEqual({
      kind: "decided-elsewhere",
      text: "Answered on Tablet",
      canDecide: false,
    });
    const delivered = change(announced, {
      type: "reply-status",
      eventId: "needs_f",
      replyId: "r_tablet",
      delivery: { status: "delivered", reason: null, at: T0.toISOString() },
    });
    expect(text(delivered)?.text).toBe("Decided on Tablet");
    // The idle page lists it while the ask is open, and no longer once the agent would have stopped waiting.
    const records = { needs_f: delivered };
    expect(
      askOutcomesElsewhere(records, "phone", at).map(({ status }) => needsYouStatusText(status, t)),
    ).toEqual(["Decided on Tablet"]);
    expect(askOutcomesElsewhere(records, "phone", EXPIRES)).toEqual([]);
    // Without the device's name (a replayed call): another device.
    expect(text(elsewhere)?.text).toBe("Answered on another device");
  });

  it("on another device whose name does not open: by its kind", () => {
    const unreadable = change(record(), {
      type: "delivery-received",
      delivery: {
        seq: 1,
        eventId: "needs_f",
        deviceId: "tablet",
        deviceName: null,
        deviceKind: "browser",
        outcome: "shown",
        at: T0.toISOString(),
      },
    });
    const announced = change(
      run({ records: { needs_f: unreadable }, answeredIds: [] }, at, {
        type: "remote-status",
        eventId: "needs_f",
        status: "answered",
        deviceId: "tablet",
      }).records.needs_f as CallRecord,
      {
        type: "answer-announced",
        change: { seq: 2, eventId: "needs_f", status: "answered", deviceId: "tablet", at: T0.toISOString() },
      },
    );
    expect(text(announced)?.text).toBe("Answered on a browser");
  });

  it("is nothing for a call that is not a needs-you call", () => {
    const finished = run(EMPTY_CALLS_MODEL, T0, {
      type: "report-received",
      routing: routingFor({ eventId: "e1" }),
      payload: payloadFor({ eventId: "e1" }),
    }).records.e1 as CallRecord;
    expect(needsYouStatus(finished, "phone", T0)).toBeNull();
  });
});
