import type { AwaySchedule } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { awayModeAt, lastScheduleChange } from "./away-times.js";

/** Sleep every night 22:00-08:00, and a Tuesday lunch 12:00-13:00, on Paris time (CET, CEST from 29 March 2026). */
const PARIS: AwaySchedule = {
  timeZone: "Europe/Paris",
  periods: [
    { modeName: "Sleep", days: [0, 1, 2, 3, 4, 5, 6], ranges: [{ start: "22:00", end: "08:00" }] },
    { modeName: "Lunch", days: [2], ranges: [{ start: "12:00", end: "13:00" }] },
  ],
};

const utc = (iso: string) => new Date(`${iso}Z`);

describe("the ring modes' away times, read in the device's time zone", () => {
  it("covers a night crossing midnight and a weekday's range, on the zone's wall clock", () => {
    // Tuesday 24 November 2026; Paris is UTC+1.
    expect(awayModeAt(PARIS, utc("2026-11-24T06:59"))).toBe("Sleep");
    expect(awayModeAt(PARIS, utc("2026-11-24T07:00"))).toBeNull();
    expect(awayModeAt(PARIS, utc("2026-11-24T11:30"))).toBe("Lunch");
    expect(awayModeAt(PARIS, utc("2026-11-25T11:30"))).toBeNull();
    expect(awayModeAt(PARIS, utc("2026-11-24T20:59"))).toBeNull();
    expect(awayModeAt(PARIS, utc("2026-11-24T21:00"))).toBe("Sleep");
  });

  it("follows the zone's daylight-saving shift", () => {
    // Monday 30 March 2026, Paris on summer time (UTC+2): 08:00 there is 06:00 UTC.
    expect(awayModeAt(PARIS, utc("2026-03-30T05:59"))).toBe("Sleep");
    expect(awayModeAt(PARIS, utc("2026-03-30T06:00"))).toBeNull();
    expect(lastScheduleChange(PARIS, utc("2026-03-30T09:00"), null)).toEqual({
      at: utc("2026-03-30T06:00"),
      modeName: "Sleep",
    });
    // The night the clocks move: sleep began at 22:00 CET (21:00 UTC) on Saturday 28 March.
    expect(lastScheduleChange(PARIS, utc("2026-03-29T03:00"), null)).toEqual({
      at: utc("2026-03-28T21:00"),
      modeName: "Sleep",
    });
  });

  it("finds the last start or end after a moment, and none when there was none since", () => {
    const now = utc("2026-11-24T11:45");
    expect(lastScheduleChange(PARIS, now, null)).toEqual({ at: utc("2026-11-24T11:00"), modeName: "Lunch" });
    expect(lastScheduleChange(PARIS, now, utc("2026-11-24T10:59:30"))).toEqual({
      at: utc("2026-11-24T11:00"),
      modeName: "Lunch",
    });
    expect(lastScheduleChange(PARIS, now, utc("2026-11-24T11:00"))).toBeNull();
    expect(lastScheduleChange(PARIS, now, utc("2026-11-24T11:30"))).toBeNull();
  });

  it("finds no change in away times that never start or end", () => {
    const always: AwaySchedule = {
      timeZone: "UTC",
      periods: [
        { modeName: "Away", days: [0, 1, 2, 3, 4, 5, 6], ranges: [{ start: "00:00", end: "00:00" }] },
      ],
    };
    expect(awayModeAt(always, utc("2026-11-24T11:45"))).toBe("Away");
    expect(lastScheduleChange(always, utc("2026-11-24T11:45"), null)).toBeNull();
  });
});
