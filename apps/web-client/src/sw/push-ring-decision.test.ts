import type { CallState } from "@ringback/client";
import { EVERY_DAY, type RingMode, SLEEP_MODE } from "@ringback/client";
import { describe, expect, it } from "vitest";
import { pushRing } from "./push-ring-decision.js";

const sleep: RingMode = { ...SLEEP_MODE, on: true };
const neverRing: RingMode = {
  id: "never",
  name: "Never",
  preset: null,
  ranges: [{ start: "00:00", end: "00:00" }],
  repeat: [...EVERY_DAY],
  rule: "do-not-ring-in",
  on: true,
};
/** Tuesday 3 March 2026, local time, so the cases hold in any time zone. */
const night = new Date(2026, 2, 3, 23, 30);
const noon = new Date(2026, 2, 3, 12, 0);

describe("a pushed call and the device's ring modes", () => {
  it("rings a call the device does not know while ringing is allowed", () => {
    expect(pushRing(undefined, [sleep], noon)).toEqual({ kind: "ring" });
    expect(pushRing(undefined, [], night)).toEqual({ kind: "ring" });
  });

  it("makes a call that arrives outside a ringing period a recorded missed call, never a ring", () => {
    expect(pushRing(undefined, [sleep], night)).toEqual({ kind: "missed", isRecorded: true });
    expect(pushRing(undefined, [neverRing], noon)).toEqual({ kind: "missed", isRecorded: true });
  });

  it("keeps a call the device holds as missed missed once ringing is allowed again", () => {
    expect(pushRing("missed", [], noon)).toEqual({ kind: "missed", isRecorded: false });
    expect(pushRing("missed", [sleep], night)).toEqual({ kind: "missed", isRecorded: false });
  });

  it("does not ring a call the page holds as waiting outside a ringing period, and leaves its record to the page", () => {
    for (const state of ["preparing", "queued", "ringing"] as const) {
      expect(pushRing(state, [sleep], night)).toEqual({ kind: "missed", isRecorded: false });
      expect(pushRing(state, [sleep], noon)).toEqual({ kind: "ring" });
    }
  });

  it("shows nothing for a call this device already settled", () => {
    const settled: CallState[] = ["in-call", "ended", "acknowledged", "failed"];
    for (const state of settled) {
      expect(pushRing(state, [], noon)).toEqual({ kind: "none" });
      expect(pushRing(state, [sleep], night)).toEqual({ kind: "none" });
    }
  });
});
