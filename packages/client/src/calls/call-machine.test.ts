import { ANSWERED_IDS_MAX, type CallDelivery, LATE_CALL_THRESHOLD_MS } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { payloadFor, type ReportFixture, routingFor, secondsAfter, T0 } from "../../test/fixtures.js";
import {
  type CallAction,
  type CallEffect,
  type CallsModel,
  EMPTY_CALLS_MODEL,
  reduceCalls,
  ringingCall,
} from "./call-machine.js";
import type { ReadingProblem } from "./call-record.js";

/** One device: its model, clock and ring schedule, and every effect the reducer asked for. */
function device(deviceId = "device-a", initial: CallsModel = EMPTY_CALLS_MODEL) {
  let model = initial;
  let now = T0;
  let isAllowed = true;
  let joinedAt: string | null = null;
  let effects: CallEffect[] = [];
  const schedule = { isRingingAllowed: () => isAllowed };
  const dispatch = (action: CallAction) => {
    const transition = reduceCalls(model, action, { now, schedule, deviceId, joinedAt });
    model = transition.model;
    effects.push(...transition.effects);
    return transition;
  };
  return {
    dispatch,
    get model() {
      return model;
    },
    takeEffects() {
      const taken = effects;
      effects = [];
      return taken;
    },
    setNow(at: Date) {
      now = at;
    },
    setRingingAllowed(value: boolean) {
      isAllowed = value;
    },
    setJoinedAt(at: Date) {
      joinedAt = at.toISOString();
    },
    receive(fixture: ReportFixture) {
      return dispatch({
        type: "report-received",
        routing: routingFor(fixture),
        payload: payloadFor(fixture),
      });
    },
    /** Receives a report and lets its voice become ready. */
    ring(fixture: ReportFixture) {
      this.receive(fixture);
      return dispatch({ type: "voice-ready", eventId: fixture.eventId });
    },
    state(eventId: string) {
      return model.records[eventId]?.status.state;
    },
    status(eventId: string) {
      return model.records[eventId]?.status;
    },
  };
}

describe("call lifecycle: report received", () => {
  it("(none) -> preparing: a received report prepares the whole voice before it rings", () => {
    const phone = device();
    phone.receive({ eventId: "e1" });
    expect(phone.state("e1")).toBe("preparing");
    expect(phone.takeEffects()).toEqual([{ type: "prepare-voice", eventId: "e1" }]);
    expect(ringingCall(phone.model)).toBeUndefined();
  });

  it("keeps in the record that its computer posted the call quiet, and nothing for a call that rings", () => {
    const phone = device();
    phone.dispatch({
      type: "report-received",
      routing: { ...routingFor({ eventId: "q1" }), ring: "quiet" },
      payload: payloadFor({ eventId: "q1" }),
    });
    phone.receive({ eventId: "e1" });
    expect(phone.model.records.q1?.ring).toBe("quiet");
    expect(phone.model.records.e1).not.toHaveProperty("ring");
  });

  it("preparing -> ringing when the voice is ready and ringing is allowed now", () => {
    const phone = device();
    phone.ring({ eventId: "e1" });
    expect(phone.state("e1")).toBe("ringing");
    expect(ringingCall(phone.model)?.eventId).toBe("e1");
  });

  it("preparing -> missed when the voice is ready but ringing is no longer allowed", () => {
    const phone = device();
    phone.receive({ eventId: "e1" });
    phone.setRingingAllowed(false);
    phone.dispatch({ type: "voice-ready", eventId: "e1" });
    expect(phone.status("e1")).toMatchObject({ state: "missed", missedReason: "outside-ringing-period" });
  });
});

/** Why a voice could not be prepared, as the controller hands it over: worded only when shown. */
const NO_VOICE: ReadingProblem = { kind: "no-voice" };

describe("call lifecycle: generation fails", () => {
  it("preparing -> the idle page shows the failed report, and it does not ring", () => {
    const phone = device();
    phone.receive({ eventId: "e1" });
    phone.dispatch({ type: "voice-failed", eventId: "e1", reason: NO_VOICE });
    expect(phone.status("e1")).toMatchObject({ state: "failed", failure: NO_VOICE });
    expect(ringingCall(phone.model)).toBeUndefined();
  });

  it("retry prepares the voice again and then rings", () => {
    const phone = device();
    phone.receive({ eventId: "e1" });
    phone.dispatch({ type: "voice-failed", eventId: "e1", reason: NO_VOICE });
    phone.takeEffects();
    phone.dispatch({ type: "retry", eventId: "e1" });
    expect(phone.takeEffects()).toEqual([{ type: "prepare-voice", eventId: "e1" }]);
    phone.dispatch({ type: "voice-ready", eventId: "e1" });
    expect(phone.state("e1")).toBe("ringing");
  });

  it("ignore puts the failed report in history without telling the relay", () => {
    const phone = device();
    phone.receive({ eventId: "e1" });
    phone.dispatch({ type: "voice-failed", eventId: "e1", reason: NO_VOICE });
    phone.takeEffects();
    phone.dispatch({ type: "ignore", eventId: "e1" });
    expect(phone.status("e1")).toMatchObject({ state: "ended", outcome: "ignored" });
    expect(phone.takeEffects()).toEqual([]);
  });
});

describe("call lifecycle: the ring queue", () => {
  it("queued -> ringing: a report that arrives while another rings waits, then rings when that one ends", () => {
    const phone = device();
    phone.ring({ eventId: "first" });
    phone.dispatch({ type: "ring-shown", eventId: "first" });
    phone.ring({ eventId: "second" });
    expect(phone.state("second")).toBe("queued");
    phone.dispatch({ type: "reject", eventId: "first" });
    expect(phone.state("second")).toBe("ringing");
  });

  it("rings queued calls by issue priority, then by update time, newest first", () => {
    const phone = device();
    phone.ring({ eventId: "in-call" });
    phone.dispatch({ type: "answer", eventId: "in-call" });
    phone.ring({ eventId: "low", priority: "low", issueUpdatedAt: "2026-03-02T09:59:00Z" });
    phone.ring({ eventId: "high-old", priority: "high", issueUpdatedAt: "2026-03-02T09:00:00Z" });
    phone.ring({ eventId: "high-new", priority: "high", issueUpdatedAt: "2026-03-02T09:30:00Z" });
    phone.ring({ eventId: "none", issueUpdatedAt: "2026-03-02T09:59:30Z" });
    const order: string[] = [];
    phone.dispatch({ type: "hang-up", eventId: "in-call" });
    for (let turn = 0; turn < 4; turn++) {
      const ringing = ringingCall(phone.model)!;
      order.push(ringing.eventId);
      phone.dispatch({ type: "ring-shown", eventId: ringing.eventId });
      phone.dispatch({ type: "reject", eventId: ringing.eventId });
    }
    expect(order).toEqual(["high-new", "high-old", "low", "none"]);
  });

  it("a not-yet-shown head yields to a more urgent report", () => {
    const phone = device();
    phone.ring({ eventId: "medium", priority: "medium" });
    expect(phone.state("medium")).toBe("ringing");
    phone.ring({ eventId: "urgent", priority: "urgent" });
    expect(phone.state("urgent")).toBe("ringing");
    expect(phone.state("medium")).toBe("queued");
  });

  it("a shown ringing call keeps ringing when a more urgent report arrives", () => {
    const phone = device();
    phone.ring({ eventId: "medium", priority: "medium" });
    phone.dispatch({ type: "ring-shown", eventId: "medium" });
    phone.ring({ eventId: "urgent", priority: "urgent" });
    expect(phone.state("medium")).toBe("ringing");
    expect(phone.state("urgent")).toBe("queued");
  });

  it("an unshown head does not yield to a report of the same priority", () => {
    const phone = device();
    phone.ring({ eventId: "a", priority: "high", issueUpdatedAt: "2026-03-02T09:00:00Z" });
    phone.ring({ eventId: "b", priority: "high", issueUpdatedAt: "2026-03-02T09:50:00Z" });
    expect(phone.state("a")).toBe("ringing");
    expect(phone.state("b")).toBe("queued");
  });
});

describe("call lifecycle: missed", () => {
  it("any waiting -> missed when the report arrives outside a ringing period", () => {
    const phone = device();
    phone.setRingingAllowed(false);
    phone.receive({ eventId: "e1" });
    expect(phone.status("e1")).toMatchObject({ state: "missed", missedReason: "outside-ringing-period" });
    expect(phone.takeEffects()).toEqual([]);
  });

  it("a missed call stays missed after ringing periods return", () => {
    const phone = device();
    phone.setRingingAllowed(false);
    phone.receive({ eventId: "e1" });
    phone.setRingingAllowed(true);
    phone.dispatch({ type: "schedule-check" });
    phone.ring({ eventId: "e2" });
    expect(phone.state("e1")).toBe("missed");
    expect(phone.state("e2")).toBe("ringing");
  });

  it("any waiting -> missed when the device learns of the report more than 2 minutes after it was raised", () => {
    const phone = device();
    phone.setNow(new Date(T0.getTime() + LATE_CALL_THRESHOLD_MS + 1));
    phone.receive({ eventId: "late", occurredAt: T0.toISOString() });
    expect(phone.status("late")).toMatchObject({ state: "missed", missedReason: "learned-late" });
  });

  it("a brief a slow model finished minutes after the report rings when the device learns of it at once", () => {
    const phone = device();
    const briefGeneratedAt = new Date(T0.getTime() + 4 * LATE_CALL_THRESHOLD_MS).toISOString();
    phone.setNow(secondsAfter(new Date(briefGeneratedAt), 5));
    phone.ring({ eventId: "slow-brief", occurredAt: T0.toISOString(), briefGeneratedAt });
    expect(phone.state("slow-brief")).toBe("ringing");
    // The same call learned 2 minutes after its brief was finished (the app was closed) is missed.
    const later = device();
    later.setNow(new Date(Date.parse(briefGeneratedAt) + LATE_CALL_THRESHOLD_MS + 1));
    later.receive({ eventId: "slow-brief", occurredAt: T0.toISOString(), briefGeneratedAt });
    expect(later.status("slow-brief")).toMatchObject({ state: "missed", missedReason: "learned-late" });
  });

  it("any waiting -> missed when the report was raised before this device joined the account, however recent", () => {
    const phone = device();
    phone.setJoinedAt(secondsAfter(T0, 30));
    phone.setNow(secondsAfter(T0, 40));
    phone.receive({ eventId: "before", occurredAt: T0.toISOString() });
    expect(phone.status("before")).toMatchObject({ state: "missed", missedReason: "before-joining" });
    expect(phone.takeEffects().some((effect) => effect.type === "prepare-voice")).toBe(false);
    // One raised once it had joined rings as usual.
    phone.ring({ eventId: "after", occurredAt: secondsAfter(T0, 31).toISOString() });
    expect(phone.state("after")).toBe("ringing");
  });

  it("a device paired before its joining time was kept rings a recent report as before", () => {
    const phone = device();
    phone.setNow(secondsAfter(T0, 40));
    phone.ring({ eventId: "recent", occurredAt: T0.toISOString() });
    expect(phone.state("recent")).toBe("ringing");
  });

  it("a report learned exactly 2 minutes after it was raised still rings", () => {
    const phone = device();
    phone.setNow(new Date(T0.getTime() + LATE_CALL_THRESHOLD_MS));
    phone.ring({ eventId: "on-time", occurredAt: T0.toISOString() });
    expect(phone.state("on-time")).toBe("ringing");
  });

  it("waiting -> missed when a non-ringing period begins before answer (ringing, queued and preparing)", () => {
    const phone = device();
    phone.ring({ eventId: "ringing" });
    phone.ring({ eventId: "queued" });
    phone.receive({ eventId: "preparing" });
    phone.setRingingAllowed(false);
    phone.dispatch({ type: "schedule-check" });
    for (const eventId of ["ringing", "queued", "preparing"]) {
      expect(phone.status(eventId)).toMatchObject({ state: "missed", missedReason: "ringing-period-ended" });
    }
    expect(ringingCall(phone.model)).toBeUndefined();
  });

  it("missed -> in call when answered from the calls page", () => {
    const phone = device();
    phone.setRingingAllowed(false);
    phone.receive({ eventId: "e1" });
    phone.dispatch({ type: "answer", eventId: "e1" });
    expect(phone.state("e1")).toBe("in-call");
    expect(phone.takeEffects()).toEqual([
      { type: "write-status", eventId: "e1", status: "answered" },
      { type: "report-delivery", eventId: "e1", outcome: "opened" },
    ]);
  });

  it("missed -> acknowledged by acknowledge-all on the current tab's missed calls, told to the relay", () => {
    const phone = device();
    phone.setRingingAllowed(false);
    phone.receive({ eventId: "in-tab" });
    phone.receive({ eventId: "other-tab" });
    phone.dispatch({ type: "acknowledge-all", eventIds: ["in-tab"] });
    expect(phone.status("in-tab")).toMatchObject({ state: "acknowledged", outcome: "acknowledged" });
    expect(phone.state("other-tab")).toBe("missed");
    expect(phone.takeEffects()).toEqual([
      { type: "write-status", eventId: "in-tab", status: "acknowledged" },
    ]);
  });

  it("acknowledge-all leaves calls that are not missed alone", () => {
    const phone = device();
    phone.ring({ eventId: "ringing" });
    phone.dispatch({ type: "acknowledge-all", eventIds: ["ringing"] });
    expect(phone.state("ringing")).toBe("ringing");
  });
});

describe("call lifecycle: in call", () => {
  it("ringing -> in call on answer; the relay is told and the id is remembered as answered", () => {
    const phone = device();
    phone.ring({ eventId: "e1" });
    phone.takeEffects();
    phone.dispatch({ type: "answer", eventId: "e1" });
    expect(phone.state("e1")).toBe("in-call");
    expect(phone.model.answeredIds).toEqual(["e1"]);
    expect(phone.takeEffects()).toEqual([
      { type: "write-status", eventId: "e1", status: "answered" },
      { type: "report-delivery", eventId: "e1", outcome: "opened" },
    ]);
  });

  it("in call -> ended on hang-up, written back as ended, and the next queued call rings", () => {
    const phone = device();
    phone.ring({ eventId: "e1" });
    phone.dispatch({ type: "answer", eventId: "e1" });
    phone.ring({ eventId: "e2" });
    expect(phone.state("e2")).toBe("queued");
    phone.takeEffects();
    phone.dispatch({ type: "hang-up", eventId: "e1" });
    expect(phone.status("e1")).toMatchObject({ state: "ended", outcome: "answered" });
    expect(phone.takeEffects()).toEqual([{ type: "write-status", eventId: "e1", status: "ended" }]);
    expect(phone.state("e2")).toBe("ringing");
  });

  it("ringing -> ended on reject, written back as rejected", () => {
    const phone = device();
    phone.ring({ eventId: "e1" });
    phone.takeEffects();
    phone.dispatch({ type: "reject", eventId: "e1" });
    expect(phone.status("e1")).toMatchObject({ state: "ended", outcome: "rejected" });
    expect(phone.takeEffects()).toEqual([{ type: "write-status", eventId: "e1", status: "rejected" }]);
  });

  it("ringing -> missed on Later from the notification, told to nobody; the queued call rings next", () => {
    const phone = device();
    phone.ring({ eventId: "e1" });
    phone.dispatch({ type: "ring-shown", eventId: "e1" });
    phone.ring({ eventId: "e2" });
    phone.takeEffects();
    phone.dispatch({ type: "set-aside", eventId: "e1" });
    expect(phone.status("e1")).toMatchObject({ state: "missed", missedReason: "set-aside" });
    expect(phone.state("e2")).toBe("ringing");
    expect(phone.takeEffects().filter((effect) => effect.type === "write-status")).toEqual([]);
    phone.dispatch({ type: "set-aside", eventId: "e1" });
    expect(phone.status("e1")).toMatchObject({ state: "missed", missedReason: "set-aside" });
  });
});

describe("call lifecycle: several devices", () => {
  it("answer on one device: the others stop ringing and record 'answered on another device'", () => {
    const laptop = device("laptop");
    const phone = device("phone");
    laptop.ring({ eventId: "e1" });
    phone.ring({ eventId: "e1" });
    laptop.dispatch({ type: "answer", eventId: "e1" });
    phone.dispatch({ type: "remote-status", eventId: "e1", status: "answered", deviceId: "laptop" });
    expect(phone.status("e1")).toMatchObject({ state: "ended", outcome: "answered-elsewhere" });
    expect(ringingCall(phone.model)).toBeUndefined();
    expect(laptop.state("e1")).toBe("in-call");
  });

  it("answer on one device removes the call from the missed calls of the others", () => {
    const phone = device("phone");
    phone.setRingingAllowed(false);
    phone.receive({ eventId: "e1" });
    phone.dispatch({ type: "remote-status", eventId: "e1", status: "answered", deviceId: "laptop" });
    expect(phone.status("e1")).toMatchObject({ state: "ended", outcome: "answered-elsewhere" });
  });

  it("two devices answer almost at once: the one the relay refused ends its call", () => {
    const phone = device("phone");
    phone.ring({ eventId: "e1" });
    phone.dispatch({ type: "answer", eventId: "e1" });
    phone.dispatch({ type: "answer-lost", eventId: "e1", status: "answered" });
    expect(phone.status("e1")).toMatchObject({ state: "ended", outcome: "answered-elsewhere" });
  });

  it("an in-call device that learns another device's answer came first ends its call", () => {
    const phone = device("phone");
    phone.ring({ eventId: "e1" });
    phone.dispatch({ type: "answer", eventId: "e1" });
    phone.dispatch({ type: "remote-status", eventId: "e1", status: "answered", deviceId: "laptop" });
    expect(phone.status("e1")).toMatchObject({ state: "ended", outcome: "answered-elsewhere" });
  });

  it("an answer that reached the relay after the call ended another way ends with that outcome", () => {
    const phone = device("phone");
    phone.setRingingAllowed(false);
    phone.receive({ eventId: "e1" });
    phone.dispatch({ type: "answer", eventId: "e1" });
    phone.dispatch({ type: "answer-lost", eventId: "e1", status: "acknowledged" });
    expect(phone.status("e1")).toMatchObject({ state: "ended", outcome: "acknowledged-elsewhere" });
  });

  it("a replayed 'answered' that names no device is this device's own answer when it remembers one", () => {
    const phone = device("phone");
    phone.ring({ eventId: "mine" });
    phone.dispatch({ type: "answer", eventId: "mine" });
    phone.dispatch({ type: "remote-status", eventId: "mine", status: "answered", deviceId: null });
    expect(phone.state("mine")).toBe("in-call");
    phone.dispatch({ type: "hang-up", eventId: "mine" });
    phone.ring({ eventId: "theirs" });
    phone.dispatch({ type: "remote-status", eventId: "theirs", status: "answered", deviceId: null });
    expect(phone.status("theirs")).toMatchObject({ state: "ended", outcome: "answered-elsewhere" });
  });

  it("a device ignores the relay's echo of its own status", () => {
    const phone = device("phone");
    phone.ring({ eventId: "e1" });
    phone.dispatch({ type: "answer", eventId: "e1" });
    const before = phone.model;
    phone.dispatch({ type: "remote-status", eventId: "e1", status: "answered", deviceId: "phone" });
    expect(phone.model).toBe(before);
  });

  it("reject on one device ends the call on the others", () => {
    const phone = device("phone");
    phone.ring({ eventId: "e1" });
    phone.dispatch({ type: "remote-status", eventId: "e1", status: "rejected", deviceId: "laptop" });
    expect(phone.status("e1")).toMatchObject({ state: "ended", outcome: "rejected-elsewhere" });
  });

  it("acknowledge-all on one device ends a ringing call and acknowledges a missed one on the others", () => {
    const phone = device("phone");
    phone.ring({ eventId: "ringing" });
    phone.setRingingAllowed(false);
    phone.receive({ eventId: "missed" });
    phone.dispatch({ type: "remote-status", eventId: "ringing", status: "acknowledged", deviceId: "laptop" });
    phone.dispatch({ type: "remote-status", eventId: "missed", status: "acknowledged", deviceId: "laptop" });
    expect(phone.status("ringing")).toMatchObject({ state: "ended", outcome: "acknowledged-elsewhere" });
    expect(phone.status("missed")).toMatchObject({
      state: "acknowledged",
      outcome: "acknowledged-elsewhere",
    });
  });

  it("calls ended elsewhere while the device was disconnected are removed on reconnect", () => {
    const phone = device("phone");
    phone.setRingingAllowed(false);
    phone.receive({ eventId: "still-pending" });
    phone.receive({ eventId: "ended-while-away" });
    phone.dispatch({ type: "pending-calls", eventIds: ["still-pending"] });
    expect(phone.state("still-pending")).toBe("missed");
    expect(phone.status("ended-while-away")).toMatchObject({ state: "ended", outcome: "ended-elsewhere" });
  });

  it("a call the relay expired while it was waiting becomes missed", () => {
    const phone = device("phone");
    phone.ring({ eventId: "e1" });
    phone.dispatch({ type: "remote-status", eventId: "e1", status: "expired", deviceId: null });
    expect(phone.status("e1")).toMatchObject({ state: "missed", missedReason: "expired" });
  });

  it("a call shows at most once per device: the relay pushing it again changes nothing", () => {
    const phone = device();
    phone.ring({ eventId: "e1" });
    phone.dispatch({ type: "ring-shown", eventId: "e1" });
    phone.takeEffects();
    const before = phone.model;
    phone.receive({ eventId: "e1" });
    expect(phone.model).toBe(before);
    expect(phone.takeEffects()).toEqual([]);
  });
});

describe("call lifecycle: restart and refresh", () => {
  it("a call already ended locally is not shown again and its result is re-reported", () => {
    const phone = device();
    phone.ring({ eventId: "e1" });
    phone.dispatch({ type: "reject", eventId: "e1" });
    const restarted = device("device-a", phone.model);
    restarted.dispatch({ type: "restored" });
    restarted.receive({ eventId: "e1" });
    expect(restarted.status("e1")).toMatchObject({ state: "ended", outcome: "rejected" });
    expect(ringingCall(restarted.model)).toBeUndefined();
    expect(restarted.takeEffects()).toEqual([{ type: "write-status", eventId: "e1", status: "rejected" }]);
  });

  it("an answered call interrupted by a restart becomes missed and never rings again", () => {
    const phone = device();
    phone.ring({ eventId: "e1" });
    phone.dispatch({ type: "answer", eventId: "e1" });
    const restarted = device("device-a", phone.model);
    restarted.dispatch({ type: "restored" });
    expect(restarted.status("e1")).toMatchObject({ state: "missed", missedReason: "interrupted" });
    restarted.receive({ eventId: "e1" });
    restarted.dispatch({ type: "voice-ready", eventId: "e1" });
    expect(restarted.state("e1")).toBe("missed");
    expect(ringingCall(restarted.model)).toBeUndefined();
  });

  it("an answered call whose record was deleted never rings again", () => {
    const phone = device("device-a", { records: {}, answeredIds: ["e1"] });
    phone.receive({ eventId: "e1" });
    expect(phone.model.records.e1).toBeUndefined();
    expect(phone.takeEffects()).toEqual([{ type: "write-status", eventId: "e1", status: "ended" }]);
  });

  it("a ringing call already shown becomes missed after a refresh instead of ringing twice", () => {
    const phone = device();
    phone.ring({ eventId: "e1" });
    phone.dispatch({ type: "ring-shown", eventId: "e1" });
    const restarted = device("device-a", phone.model);
    restarted.dispatch({ type: "restored" });
    expect(restarted.status("e1")).toMatchObject({ state: "missed", missedReason: "interrupted" });
  });

  it("a call not yet shown prepares its voice again after a refresh", () => {
    const phone = device();
    phone.ring({ eventId: "ringing" });
    phone.dispatch({ type: "ring-shown", eventId: "ringing" });
    phone.ring({ eventId: "queued" });
    const restarted = device("device-a", phone.model);
    restarted.setNow(secondsAfter(T0, 30));
    restarted.dispatch({ type: "restored" });
    expect(restarted.state("queued")).toBe("preparing");
    expect(restarted.takeEffects()).toEqual([{ type: "prepare-voice", eventId: "queued" }]);
  });

  it("a call not yet shown becomes missed when the app was closed for more than 2 minutes", () => {
    const phone = device();
    phone.receive({ eventId: "e1" });
    const restarted = device("device-a", phone.model);
    restarted.setNow(new Date(T0.getTime() + LATE_CALL_THRESHOLD_MS + 1));
    restarted.dispatch({ type: "restored" });
    expect(restarted.status("e1")).toMatchObject({ state: "missed", missedReason: "learned-late" });
  });

  it("missed, ended and failed calls are unchanged by a restart", () => {
    const phone = device();
    phone.setRingingAllowed(false);
    phone.receive({ eventId: "missed" });
    phone.setRingingAllowed(true);
    phone.receive({ eventId: "failed" });
    phone.dispatch({ type: "voice-failed", eventId: "failed", reason: NO_VOICE });
    const restarted = device("device-a", phone.model);
    const transition = restarted.dispatch({ type: "restored" });
    expect(transition.model).toBe(phone.model);
  });
});

describe("answered ids", () => {
  it(`keeps at most ${ANSWERED_IDS_MAX}, dropping the oldest`, () => {
    const ids = Array.from({ length: ANSWERED_IDS_MAX }, (_, index) => `old-${index}`);
    const phone = device("device-a", { records: {}, answeredIds: ids });
    phone.ring({ eventId: "new" });
    phone.dispatch({ type: "answer", eventId: "new" });
    expect(phone.model.answeredIds).toHaveLength(ANSWERED_IDS_MAX);
    expect(phone.model.answeredIds.at(-1)).toBe("new");
    expect(phone.model.answeredIds).not.toContain("old-0");
  });
});

describe("delivery outcomes this device reports", () => {
  it("reports shown once, when the ringing screen first shows the call, and keeps it pending in the record", () => {
    const phone = device();
    phone.ring({ eventId: "e1" });
    phone.takeEffects();
    phone.dispatch({ type: "ring-shown", eventId: "e1" });
    expect(phone.takeEffects()).toEqual([{ type: "report-delivery", eventId: "e1", outcome: "shown" }]);
    expect(phone.status("e1")?.deliveryReports).toEqual({ shown: "pending" });
    phone.dispatch({ type: "ring-shown", eventId: "e1" });
    expect(phone.takeEffects()).toEqual([]);
  });

  it("reports nothing for a call that is only queued or missed, never shown", () => {
    const phone = device();
    phone.setRingingAllowed(false);
    phone.receive({ eventId: "e1" });
    phone.takeEffects();
    phone.dispatch({ type: "ring-shown", eventId: "e1" });
    expect(phone.takeEffects()).toEqual([]);
    expect(phone.status("e1")?.deliveryReports).toBeUndefined();
  });

  it("reports opened once per call, even when an interrupted call is answered again after a restart", () => {
    const phone = device();
    phone.ring({ eventId: "e1" });
    phone.dispatch({ type: "ring-shown", eventId: "e1" });
    phone.dispatch({ type: "answer", eventId: "e1" });
    expect(phone.takeEffects()).toContainEqual({ type: "report-delivery", eventId: "e1", outcome: "opened" });
    expect(phone.status("e1")?.deliveryReports).toEqual({ shown: "pending", opened: "pending" });
    const restarted = device("device-a", phone.model);
    restarted.dispatch({ type: "restored" });
    restarted.dispatch({ type: "answer", eventId: "e1" });
    expect(restarted.state("e1")).toBe("in-call");
    expect(restarted.takeEffects()).toEqual([{ type: "write-status", eventId: "e1", status: "answered" }]);
  });

  it("does not report an outcome the relay already has from this device (a notification shown by the worker)", () => {
    const phone = device();
    phone.ring({ eventId: "e1" });
    const record = phone.model.records.e1!;
    const withReport = {
      ...record,
      status: { ...record.status, deliveryReports: { shown: "reported" as const } },
    };
    const settled = device("device-a", { records: { e1: withReport }, answeredIds: [] });
    settled.dispatch({ type: "ring-shown", eventId: "e1" });
    expect(settled.takeEffects()).toEqual([]);
    expect(settled.status("e1")?.shownAt).toBe(T0.toISOString());
  });
});

const deliveryOf = (
  eventId: string,
  deviceId: string,
  outcome: CallDelivery["outcome"],
  at = T0,
): CallDelivery => ({
  seq: 1,
  eventId,
  deviceId,
  deviceName: `name of ${deviceId}`,
  outcome,
  at: at.toISOString(),
});

describe("record changes: what a record says, never a lifecycle step", () => {
  it("delivery-received keeps another device's step and settles this device's own report", () => {
    const phone = device("device-a");
    phone.ring({ eventId: "e1" });
    phone.dispatch({ type: "ring-shown", eventId: "e1" });
    phone.takeEffects();
    phone.dispatch({ type: "delivery-received", delivery: deliveryOf("e1", "device-b", "shown") });
    phone.dispatch({ type: "delivery-received", delivery: deliveryOf("e1", "device-a", "shown") });
    expect(phone.status("e1")?.deliveries?.map((entry) => `${entry.deviceId} ${entry.outcome}`)).toEqual([
      "device-b shown",
      "device-a shown",
    ]);
    expect(phone.status("e1")?.deliveryReports).toEqual({ shown: "reported" });
    expect(phone.state("e1")).toBe("ringing");
    expect(phone.takeEffects()).toEqual([]);
    const replayed = phone.dispatch({
      type: "delivery-received",
      delivery: deliveryOf("e1", "device-b", "shown"),
    });
    expect(replayed.model).toBe(phone.model);
  });

  it("answer-announced records the device the relay names as the one that answered", () => {
    const phone = device("device-a");
    phone.ring({ eventId: "e1" });
    const at = secondsAfter(T0, 5).toISOString();
    const answered = { seq: 3, eventId: "e1", status: "answered" as const, deviceId: "device-b", at };
    phone.dispatch({ type: "answer-announced", change: answered });
    expect(phone.status("e1")?.answeredBy).toEqual({ deviceId: "device-b", at });
    // Ending the call is the lifecycle's `remote-status`, not this change.
    expect(phone.state("e1")).toBe("ringing");
    const before = phone.model;
    phone.dispatch({ type: "answer-announced", change: { ...answered, status: "rejected" } });
    expect(phone.model).toBe(before);
  });

  it("delivery-reported settles this device's report and keeps the delivery the relay recorded", () => {
    const phone = device("device-a");
    phone.ring({ eventId: "e1" });
    phone.dispatch({ type: "ring-shown", eventId: "e1" });
    phone.dispatch({
      type: "delivery-reported",
      eventId: "e1",
      outcome: "shown",
      delivery: deliveryOf("e1", "device-a", "shown"),
    });
    expect(phone.status("e1")?.deliveryReports).toEqual({ shown: "reported" });
    expect(phone.status("e1")?.deliveries).toEqual([
      { deviceId: "device-a", deviceName: "name of device-a", outcome: "shown", at: T0.toISOString() },
    ]);
  });

  it("delivery-abandoned gives up a pending report, never one the relay already has", () => {
    const phone = device("device-a");
    phone.ring({ eventId: "e1" });
    phone.dispatch({ type: "ring-shown", eventId: "e1" });
    phone.dispatch({ type: "answer", eventId: "e1" });
    phone.dispatch({
      type: "delivery-reported",
      eventId: "e1",
      outcome: "shown",
      delivery: deliveryOf("e1", "device-a", "shown"),
    });
    phone.dispatch({ type: "delivery-abandoned", eventId: "e1", outcome: "opened" });
    phone.dispatch({ type: "delivery-abandoned", eventId: "e1", outcome: "shown" });
    expect(phone.status("e1")?.deliveryReports).toEqual({ shown: "reported", opened: "abandoned" });
  });

  it("reply-sent keeps the reply and the relay's first status, both stamped now", () => {
    const phone = device();
    phone.ring({ eventId: "e1" });
    phone.dispatch({ type: "answer", eventId: "e1" });
    phone.dispatch({ type: "hang-up", eventId: "e1" });
    phone.takeEffects();
    const sentAt = secondsAfter(T0, 30);
    phone.setNow(sentAt);
    phone.dispatch({ type: "reply-sent", eventId: "e1", replyId: "r1", text: "Ship it.", status: "queued" });
    expect(phone.model.records.e1?.replies).toEqual([
      { replyId: "r1", text: "Ship it.", sentAt: sentAt.toISOString() },
    ]);
    expect(phone.status("e1")?.replyDeliveries).toEqual({
      r1: { status: "queued", reason: null, at: sentAt.toISOString() },
    });
    expect(phone.status("e1")).toMatchObject({ state: "ended", outcome: "answered" });
    expect(phone.takeEffects()).toEqual([]);
  });

  it("reply-status settles a reply's delivery; a late queued status never replaces it", () => {
    const phone = device();
    phone.ring({ eventId: "e1" });
    phone.dispatch({ type: "reply-sent", eventId: "e1", replyId: "r1", text: "Ship it.", status: "queued" });
    const delivered = { status: "delivered", reason: null, at: secondsAfter(T0, 10).toISOString() };
    phone.dispatch({ type: "reply-status", eventId: "e1", replyId: "r1", delivery: delivered });
    phone.dispatch({
      type: "reply-status",
      eventId: "e1",
      replyId: "r1",
      delivery: { status: "queued", reason: null, at: secondsAfter(T0, 11).toISOString() },
    });
    expect(phone.status("e1")?.replyDeliveries).toEqual({ r1: delivered });
  });

  it("content-changed merges the conversation and decisions into the record, its status untouched", () => {
    const phone = device();
    phone.ring({ eventId: "e1" });
    phone.dispatch({ type: "answer", eventId: "e1" });
    const status = phone.status("e1");
    const conversation = [{ role: "user" as const, text: "Which tests?", at: T0.toISOString() }];
    const decisions = [{ text: "Ship it today.", at: T0.toISOString(), question: "Ship it today?" }];
    phone.dispatch({ type: "content-changed", eventId: "e1", change: { conversation, decisions } });
    expect(phone.model.records.e1).toMatchObject({ conversation, decisions, replies: [] });
    expect(phone.status("e1")).toBe(status);
  });

  it("issues-refreshed takes the issues' current values and leaves the ring queue as it is", () => {
    const phone = device();
    phone.ring({ eventId: "medium", priority: "medium" });
    phone.ring({ eventId: "low", priority: "low" });
    const untouched = phone.model.records.medium;
    expect(phone.state("low")).toBe("queued");
    const refresh = {
      workspaceId: "ws1",
      issueId: "issue-low",
      projectId: "p2",
      projectName: "Billing",
      priority: "urgent",
      updatedAt: secondsAfter(T0, 60).toISOString(),
    };
    phone.dispatch({ type: "issues-refreshed", refreshes: [refresh] });
    expect(phone.model.records.low?.issue).toMatchObject({
      projectId: "p2",
      projectName: "Billing",
      priority: "urgent",
      updatedAt: refresh.updatedAt,
    });
    expect(phone.model.records.medium).toBe(untouched);
    // The more urgent call rings at the queue's next step, not because of the refresh.
    expect(phone.state("medium")).toBe("ringing");
    expect(phone.state("low")).toBe("queued");
  });

  it("records-evicted lets the records storage deleted go, and keeps the answered ids", () => {
    const phone = device();
    phone.ring({ eventId: "e1" });
    phone.dispatch({ type: "answer", eventId: "e1" });
    phone.dispatch({ type: "hang-up", eventId: "e1" });
    phone.ring({ eventId: "e2" });
    phone.dispatch({ type: "records-evicted", eventIds: ["e1"] });
    expect(Object.keys(phone.model.records)).toEqual(["e2"]);
    expect(phone.model.answeredIds).toEqual(["e1"]);
    const before = phone.model;
    phone.dispatch({ type: "records-evicted", eventIds: ["e1"] });
    expect(phone.model).toBe(before);
  });

  it("a change for a call this device has no record of changes nothing", () => {
    const phone = device();
    phone.ring({ eventId: "e1" });
    const before = phone.model;
    phone.dispatch({ type: "content-changed", eventId: "gone", change: { conversation: [] } });
    phone.dispatch({ type: "reply-sent", eventId: "gone", replyId: "r1", text: "Hi", status: "queued" });
    phone.dispatch({ type: "delivery-received", delivery: deliveryOf("gone", "device-b", "shown") });
    expect(phone.model).toBe(before);
  });
});

describe("call lifecycle: quiet calls and the round-up", () => {
  it("a quiet call never rings: it waits among the missed calls for a round-up, with nothing sent", () => {
    const phone = device();
    phone.dispatch({
      type: "report-received",
      routing: { ...routingFor({ eventId: "e_quiet" }), ring: "quiet" },
      payload: payloadFor({ eventId: "e_quiet" }),
    });
    expect(phone.status("e_quiet")).toMatchObject({ state: "missed", missedReason: "quiet" });
    expect(phone.takeEffects()).toEqual([]);
    expect(ringingCall(phone.model)).toBeUndefined();
  });

  it("moves on: the call in progress ends heard, a queued one is answered at once, none rings between", () => {
    const phone = device();
    phone.ring({ eventId: "e1" });
    phone.ring({ eventId: "e2" });
    phone.dispatch({ type: "answer", eventId: "e1" });
    expect(phone.state("e2")).toBe("queued");
    phone.takeEffects();
    phone.dispatch({ type: "round-up-step", leave: "heard", nextEventId: "e2" });
    expect(phone.status("e1")).toMatchObject({ state: "ended", outcome: "answered" });
    expect(phone.state("e2")).toBe("in-call");
    expect(phone.takeEffects()).toEqual([
      { type: "write-status", eventId: "e1", status: "ended" },
      { type: "write-status", eventId: "e2", status: "answered" },
      { type: "report-delivery", eventId: "e2", outcome: "opened" },
    ]);
  });

  it("a skipped call goes back among the missed calls; the last step leaves nothing in progress", () => {
    const phone = device();
    phone.ring({ eventId: "e1" });
    phone.dispatch({ type: "answer", eventId: "e1" });
    phone.dispatch({ type: "round-up-step", leave: "skipped", nextEventId: null });
    expect(phone.status("e1")).toMatchObject({ state: "missed", missedReason: "skipped" });
    expect(phone.model.records.e1?.status.state).not.toBe("in-call");
  });
});

describe("call lifecycle: hang-up in a round-up", () => {
  it("ends the call in progress and leaves the calls not reached among the missed, none ringing", () => {
    const phone = device();
    phone.ring({ eventId: "e1" });
    phone.ring({ eventId: "e2" });
    phone.ring({ eventId: "e3" });
    phone.dispatch({ type: "answer", eventId: "e1" });
    phone.dispatch({ type: "round-up-hang-up", laterEventIds: ["e2", "e3"] });
    expect(phone.status("e1")).toMatchObject({ state: "ended", outcome: "answered" });
    expect([phone.status("e2")?.missedReason, phone.status("e3")?.missedReason]).toEqual([
      "skipped",
      "skipped",
    ]);
    expect(ringingCall(phone.model)).toBeUndefined();
  });
});
