import type { LadderRungName, RungAnswer } from "@ringback/protocol";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { LadderRung, RungDelivery } from "./ladder-rung.js";
import { RECEIPT_POLL_MS, type RungEvent, startLadder } from "./ladder-runner.js";
import { rungTimesMs } from "./ladder-schedule.js";

const SENT: RungAnswer = { outcome: "sent", status: 200 };

interface Recorder {
  rung(name: LadderRungName, delivery?: Partial<RungDelivery>): LadderRung;
  readonly rang: { name: LadderRungName; atMs: number }[];
  readonly withdrawn: LadderRungName[];
}

function recorder(startedAtMs: number): Recorder {
  const rang: { name: LadderRungName; atMs: number }[] = [];
  const withdrawn: LadderRungName[] = [];
  return {
    rang,
    withdrawn,
    rung: (name, delivery = {}) => ({
      name,
      ring: async () => {
        rang.push({ name, atMs: Date.now() - startedAtMs });
        return { answer: SENT, ...delivery };
      },
    }),
  };
}

describe("startLadder", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date("2026-12-07T01:00:00Z") });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("climbs the rungs in order at the schedule's times: after 60 s, then every 30 s", async () => {
    const startedAtMs = Date.now();
    const calls = recorder(startedAtMs);
    const names: LadderRungName[] = ["push", "ntfy", "pushover", "telegram", "twilio"];
    const events: RungEvent[] = [];
    startLadder({
      rungs: names.map((name) => calls.rung(name)),
      timesMs: rungTimesMs({ afterSeconds: 60, stepSeconds: 30 }, names.length) ?? [],
      startedAtMs,
      onRung: (event) => events.push(event),
      onWithdrawn: () => undefined,
    });
    await vi.advanceTimersByTimeAsync(59_999);
    expect(calls.rang).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(calls.rang).toEqual([{ name: "push", atMs: 60_000 }]);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls.rang).toEqual([
      { name: "push", atMs: 60_000 },
      { name: "ntfy", atMs: 90_000 },
      { name: "pushover", atMs: 120_000 },
      { name: "telegram", atMs: 150_000 },
      { name: "twilio", atMs: 180_000 },
    ]);
    expect(events.map((event) => [event.rung, event.atMs, event.answer.outcome])).toEqual(
      calls.rang.map((entry) => [entry.name, entry.atMs, "sent"]),
    );
  });

  it("counts from when the call started ringing, not from when the ladder was built", async () => {
    const startedAtMs = Date.now() - 45_000;
    const calls = recorder(startedAtMs);
    startLadder({
      rungs: [calls.rung("push"), calls.rung("ntfy")],
      timesMs: [60_000, 90_000],
      startedAtMs,
      onRung: () => undefined,
      onWithdrawn: () => undefined,
    });
    await vi.advanceTimersByTimeAsync(15_000);
    expect(calls.rang).toEqual([{ name: "push", atMs: 60_000 }]);
  });

  it("stops every rung at once when the call is answered, and withdraws what was sent", async () => {
    const startedAtMs = Date.now();
    const calls = recorder(startedAtMs);
    const withdrawn: LadderRungName[] = [];
    const ladder = startLadder({
      rungs: [
        calls.rung("push"),
        calls.rung("pushover", { withdraw: async () => SENT }),
        calls.rung("telegram"),
        calls.rung("twilio", { withdraw: async () => SENT }),
      ],
      timesMs: [10_000, 20_000, 30_000, 40_000],
      startedAtMs,
      onRung: () => undefined,
      onWithdrawn: (rung) => withdrawn.push(rung),
    });
    await vi.advanceTimersByTimeAsync(25_000);
    await ladder.stop();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls.rang.map((entry) => entry.name)).toEqual(["push", "pushover"]);
    expect(withdrawn).toEqual(["pushover"]);
    await expect(ladder.ended).resolves.toEqual({ kind: "stopped" });
  });

  it("withdraws a rung whose send was under way when the call was answered", async () => {
    const startedAtMs = Date.now();
    const withdrawn: LadderRungName[] = [];
    let release: () => void = () => undefined;
    const slow: LadderRung = {
      name: "twilio",
      ring: () =>
        new Promise((resolve) => {
          release = () => resolve({ answer: SENT, withdraw: async () => SENT });
        }),
    };
    const ladder = startLadder({
      rungs: [slow],
      timesMs: [1000],
      startedAtMs,
      onRung: () => undefined,
      onWithdrawn: (rung) => withdrawn.push(rung),
    });
    await vi.advanceTimersByTimeAsync(1000);
    await ladder.stop();
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(withdrawn).toEqual(["twilio"]);
  });

  it("stops climbing once the person acknowledges a Pushover alert, polling its receipt every 5 s", async () => {
    const startedAtMs = Date.now();
    const calls = recorder(startedAtMs);
    const polls: number[] = [];
    let isAcknowledged = false;
    const ladder = startLadder({
      rungs: [
        calls.rung("pushover", {
          isAcknowledged: async () => {
            polls.push(Date.now() - startedAtMs);
            return isAcknowledged;
          },
        }),
        calls.rung("telegram"),
        calls.rung("twilio"),
      ],
      timesMs: [10_000, 40_000, 70_000],
      startedAtMs,
      onRung: () => undefined,
      onWithdrawn: () => undefined,
    });
    await vi.advanceTimersByTimeAsync(20_000);
    expect(polls).toEqual([15_000, 20_000]);
    isAcknowledged = true;
    await vi.advanceTimersByTimeAsync(RECEIPT_POLL_MS);
    await expect(ladder.ended).resolves.toEqual({ kind: "acknowledged", rung: "pushover" });
    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls.rang.map((entry) => entry.name)).toEqual(["pushover"]);
    expect(polls).toHaveLength(3);
  });
});

describe("rungTimesMs", () => {
  it("gives no times for a kind that never escalates", () => {
    expect(rungTimesMs({ afterSeconds: null, stepSeconds: 30 }, 3)).toBeNull();
  });
});
