import type { FleetAgent } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { askFor, needsYouFixture, recordFor, secondsAfter, T0 } from "../../test/fixtures.js";
import type { CallsModel } from "../calls/call-machine.js";
import type { CallRecord } from "../calls/call-record.js";
import type { FleetEntry } from "../fleet/fleet-list.js";
import { roundUpCalls, roundUpItem } from "./round-up-calls.js";
import { roundUpOpening } from "./round-up-opening.js";
import {
  currentRoundUpCall,
  isRoundUpOver,
  type RoundUp,
  type RoundUpAction,
  reduceRoundUp,
  startRoundUp,
} from "./round-up-sequence.js";
import { voiceCommandOf } from "./voice-command.js";

const NOW = secondsAfter(T0, 60);

function model(...records: CallRecord[]): CallsModel {
  return { records: Object.fromEntries(records.map((record) => [record.eventId, record])), answeredIds: [] };
}

function fleetEntry(eventId: string, change: Partial<FleetAgent>): FleetEntry {
  return {
    agentId: `claude-code:${eventId}`,
    source: "claude-code",
    project: "project",
    state: "finished",
    since: T0.toISOString(),
    eventId,
    headline: null,
    computerId: "dev_a",
    ...change,
  };
}

const docs = recordFor(
  { eventId: "e_docs", occurredAt: secondsAfter(T0, 5).toISOString(), brief: { title: "Links fixed." } },
  { state: "ringing" },
);
const search = recordFor(
  { eventId: "e_search", occurredAt: secondsAfter(T0, 10).toISOString(), brief: { title: "Its tests" } },
  { state: "queued" },
);
const payments = recordFor(needsYouFixture("e_pay", secondsAfter(T0, 20)), { state: "queued" });
const fleet = [
  fleetEntry("e_docs", { project: "Docs" }),
  fleetEntry("e_search", { project: "Search", state: "failed" }),
  fleetEntry("e_pay", { project: "Payments", state: "needs-you", headline: "it wants to run the migration" }),
];

describe("the calls of a round-up", () => {
  it("are the waiting, ringing, quiet and set-aside calls of any computer, needs-you first, then the oldest first", () => {
    const quiet = recordFor(
      { eventId: "e_quiet", occurredAt: secondsAfter(T0, 1).toISOString() },
      { state: "missed", missedReason: "quiet" },
    );
    const ended = recordFor({ eventId: "e_ended" }, { state: "ended", outcome: "answered" });
    const before = recordFor({ eventId: "e_before" }, { state: "missed", missedReason: "before-joining" });
    const late = recordFor({ eventId: "e_late" }, { state: "missed", missedReason: "learned-late" });
    const calls = model(docs, search, payments, quiet, ended, before, late);
    expect(roundUpCalls(calls, NOW).map((record) => record.eventId)).toEqual([
      "e_pay",
      "e_quiet",
      "e_docs",
      "e_search",
    ]);
  });

  it("leave out a needs-you call whose agent stopped waiting", () => {
    const expired = recordFor(needsYouFixture("e_gone", T0, askFor(T0, { expiresAt: T0.toISOString() })), {
      state: "queued",
    });
    expect(roundUpCalls(model(docs, expired), NOW).map((record) => record.eventId)).toEqual(["e_docs"]);
  });

  it("name each call by the fleet's project and headline, else by the brief's checked title", () => {
    expect(roundUpItem(docs, fleet)).toMatchObject({
      project: "Docs",
      kind: "finished",
      headline: "Links fixed",
    });
    expect(roundUpItem(search, fleet)).toMatchObject({
      project: "Search",
      kind: "failed",
      headline: "Its tests",
    });
    expect(roundUpItem(payments, [])).toMatchObject({
      project: "project",
      kind: "needs-you",
      headline: "run a command",
    });
    const unbriefed = recordFor({ eventId: "e_nobrief", isBriefFailed: true }, { state: "queued" });
    expect(roundUpItem(unbriefed, [])).toMatchObject({ headline: null });
  });
});

describe("the round-up's opening", () => {
  it("names every call in order, needs-you first, from checked headlines only (English)", () => {
    const items = roundUpCalls(model(docs, search, payments), NOW).map((record) =>
      roundUpItem(record, fleet),
    );
    expect(roundUpOpening(items)).toEqual({
      text: "Three agents. Payments needs you: it wants to run the migration. Docs finished: Links fixed. Search failed: Its tests.",
      language: "en-US",
    });
  });

  it("says it in Chinese for a Chinese brief, with the same shape", () => {
    const items = [
      { eventId: "a", project: "支付", kind: "needs-you" as const, headline: "运行迁移", language: "zh-CN" },
      { eventId: "b", project: "文档", kind: "finished" as const, headline: null, language: "zh-CN" },
    ];
    expect(roundUpOpening(items)).toEqual({
      text: "两个智能体。支付需要你：运行迁移。文档已完成。",
      language: "zh-CN",
    });
  });

  it("reads the count as a number and the headlines only in a language it has no words for", () => {
    const items = [
      {
        eventId: "a",
        project: "Zahlungen",
        kind: "needs-you" as const,
        headline: "Migration ausführen",
        language: "de-DE",
      },
      { eventId: "b", project: "Doku", kind: "failed" as const, headline: null, language: "de-DE" },
    ];
    expect(roundUpOpening(items)).toEqual({
      text: "2. Zahlungen: Migration ausführen. Doku.",
      language: "de-DE",
    });
  });

  it("counts past ten with a number", () => {
    const items = Array.from({ length: 12 }, (_, index) => ({
      eventId: `e${index}`,
      project: `p${index}`,
      kind: "finished" as const,
      headline: null,
      language: "en-GB",
    }));
    expect(roundUpOpening(items).text.startsWith("12 agents. p0 finished.")).toBe(true);
  });
});

describe("the round-up's sequence", () => {
  function run(roundUp: RoundUp, ...actions: RoundUpAction[]) {
    const steps: unknown[] = [];
    const last = actions.reduce((current, action) => {
      const transition = reduceRoundUp(current, action);
      if (transition.step) steps.push(transition.step);
      return transition.roundUp;
    }, roundUp);
    return { roundUp: last, steps };
  }

  it("reads the opening, then each call: Next leaves it heard, Skip leaves it for later, then it is over", () => {
    const { roundUp, steps } = run(
      startRoundUp(["a", "b", "c"]),
      { type: "opening-read" },
      { type: "next" },
      { type: "skip" },
      { type: "next" },
    );
    expect(steps).toEqual([
      { leave: "heard", nextEventId: "b" },
      { leave: "skipped", nextEventId: "c" },
      { leave: "heard", nextEventId: null },
    ]);
    expect(isRoundUpOver(roundUp)).toBe(true);
    expect(currentRoundUpCall(roundUp)).toBe(null);
  });

  it("stays on the call to answer it, and Next moves on from there", () => {
    const answering = run(startRoundUp(["a", "b"]), { type: "opening-read" }, { type: "answer" }).roundUp;
    expect(answering).toMatchObject({ isAnswering: true, position: 0 });
    const { roundUp, steps } = run(answering, { type: "next" });
    expect(roundUp).toMatchObject({ isAnswering: false, position: 1 });
    expect(steps).toEqual([{ leave: "heard", nextEventId: "b" }]);
  });

  it("lets a call that arrives meanwhile join its end, once", () => {
    const { roundUp } = run(
      startRoundUp(["a", "b"]),
      { type: "opening-read" },
      { type: "join", eventId: "c" },
      {
        type: "join",
        eventId: "c",
      },
    );
    expect(roundUp.eventIds).toEqual(["a", "b", "c"]);
    expect(roundUp.joined).toEqual(["c"]);
  });

  it("drops a call answered elsewhere before its turn, and moves on when it was the one in progress", () => {
    const started = run(startRoundUp(["a", "b", "c"]), { type: "opening-read" }).roundUp;
    expect(run(started, { type: "gone", eventId: "b" }).roundUp.eventIds).toEqual(["a", "c"]);
    expect(run(started, { type: "gone", eventId: "a" }).steps).toEqual([
      { leave: "heard", nextEventId: "b" },
    ]);
  });

  it("Repeat reads what is read now again; Next during the opening goes to the first call", () => {
    const opening = startRoundUp(["a", "b"]);
    expect(run(opening, { type: "repeat" }).roundUp).toMatchObject({ readings: 1, position: -1 });
    expect(run(opening, { type: "next" })).toMatchObject({ roundUp: { position: 0 }, steps: [] });
  });
});

describe("voice commands from a transcript", () => {
  it.each([
    ["Next", "next"],
    ["next one please", "next"],
    ["Skip.", "skip"],
    ["answer", "answer"],
    ["can you repeat that", "repeat"],
    ["下一个", "next"],
    ["跳过吧", "skip"],
    ["回复", "answer"],
    ["再说一遍", "repeat"],
    ["next, no, skip", "skip"],
  ])("hears %j as %s", (transcript, command) => {
    expect(voiceCommandOf(transcript)).toBe(command);
  });

  it("hears nothing in words that hold no command, nor in a word that only contains one", () => {
    expect(voiceCommandOf("what a nice day")).toBe(null);
    expect(voiceCommandOf("the nexus")).toBe(null);
    expect(voiceCommandOf("")).toBe(null);
  });
});
