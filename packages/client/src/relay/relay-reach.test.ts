import { describe, expect, it } from "vitest";
import type { Timers } from "../runtime/timers.js";
import { RELAY_UNREACHABLE_AFTER_MS, RelayReach } from "./relay-reach.js";

const START = Date.parse("2026-03-02T10:00:00.000Z");

/** A clock and timers the test moves by hand: `advance` runs each timeout whose time has come, in order. */
function manualTime() {
  let now = START;
  let nextId = 0;
  const timeouts = new Map<number, { at: number; callback: () => void }>();
  const timers: Timers = {
    setTimeout: (callback, delayMs) => {
      nextId += 1;
      timeouts.set(nextId, { at: now + delayMs, callback });
      return nextId;
    },
    clearTimeout: (handle) => {
      timeouts.delete(handle as number);
    },
    setInterval: () => {
      throw new Error("RelayReach needs no interval");
    },
    clearInterval: () => undefined,
  };
  return {
    clock: { now: () => now },
    timers,
    pending: () => timeouts.size,
    advance(ms: number) {
      const until = now + ms;
      for (;;) {
        const due = [...timeouts.entries()]
          .filter(([, timeout]) => timeout.at <= until)
          .sort(([, a], [, b]) => a.at - b.at)[0];
        if (!due) break;
        timeouts.delete(due[0]);
        now = due[1].at;
        due[1].callback();
      }
      now = until;
    },
  };
}

function watch() {
  const time = manualTime();
  const said: (string | null)[] = [];
  const reach = new RelayReach({
    clock: time.clock,
    timers: time.timers,
    onChange: (since) => said.push(since === null ? null : new Date(since).toISOString()),
  });
  return { time, said, reach };
}

describe("whether the relay is out of reach", () => {
  it("says so at once when the app opens and its first attempt fails, since that attempt", () => {
    const { time, said, reach } = watch();
    reach.connection("connecting");
    time.advance(1_500);
    reach.connection("offline");
    expect(said).toEqual(["2026-03-02T10:00:01.500Z"]);
    // Further failures say nothing new: the time stays that of the first one.
    time.advance(3_000);
    reach.connection("offline");
    reach.connection("connecting");
    reach.connection("offline");
    expect(said).toEqual(["2026-03-02T10:00:01.500Z"]);
  });

  it("says nothing for a relay that drops and comes back within the limit once it was reached", () => {
    const { time, said, reach } = watch();
    reach.connection("connecting");
    reach.connection("open");
    reach.connection("offline");
    time.advance(RELAY_UNREACHABLE_AFTER_MS - 1);
    reach.connection("offline");
    reach.connection("open");
    time.advance(RELAY_UNREACHABLE_AFTER_MS * 2);
    expect(said).toEqual([]);
    expect(time.pending()).toBe(0);
  });

  it("says so after the limit of failed attempts on the injected clock, from the first failure", () => {
    const { time, said, reach } = watch();
    reach.connection("open");
    time.advance(60_000);
    reach.connection("offline");
    time.advance(5_000);
    reach.connection("connecting");
    reach.connection("offline");
    time.advance(RELAY_UNREACHABLE_AFTER_MS - 5_001);
    expect(said).toEqual([]);
    time.advance(1);
    expect(said).toEqual(["2026-03-02T10:01:00.000Z"]);
  });

  it("unsays it as soon as the relay is reached again, and counts a later outage afresh", () => {
    const { time, said, reach } = watch();
    reach.connection("offline");
    time.advance(40_000);
    reach.connection("open");
    expect(said).toEqual(["2026-03-02T10:00:00.000Z", null]);
    // Reached once now: the next outage waits out the limit.
    time.advance(1_000);
    reach.connection("offline");
    time.advance(RELAY_UNREACHABLE_AFTER_MS);
    expect(said).toEqual(["2026-03-02T10:00:00.000Z", null, "2026-03-02T10:00:41.000Z"]);
  });

  it("leaves no timer behind once stopped", () => {
    const { time, said, reach } = watch();
    reach.connection("open");
    reach.connection("offline");
    expect(time.pending()).toBe(1);
    reach.stop();
    expect(time.pending()).toBe(0);
    time.advance(RELAY_UNREACHABLE_AFTER_MS * 2);
    expect(said).toEqual([]);
  });
});
