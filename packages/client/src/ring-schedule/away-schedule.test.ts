import { describe, expect, it } from "vitest";
import { awayScheduleOf, ringModeName } from "./away-schedule.js";
import { SLEEP_MODE, WORK_MODE } from "./preinstalled-modes.js";
import type { RingMode } from "./ring-mode.js";

const NAMES = { modeWork: "Work", modeSleep: "Sleep", modeUnnamed: "Mode" };

const lunch: RingMode = {
  id: "lunch",
  name: "Lunch",
  preset: null,
  ranges: [{ start: "12:00", end: "13:30" }],
  repeat: [1, 3],
  rule: "ring-only-in",
  on: true,
  away: true,
};

describe("the away times a device's ring modes give its computers", () => {
  it("takes each mode that is on and marked away, named as the screen names it", () => {
    const sleep = { ...SLEEP_MODE, on: true, away: true };
    const workOffAway = { ...WORK_MODE, away: true };
    const onNotAway = { ...lunch, id: "other", away: false };
    expect(
      awayScheduleOf(
        [sleep, workOffAway, onNotAway, lunch],
        { timeZone: "Europe/Paris", deviceId: "dev_phone" },
        NAMES,
      ),
    ).toEqual({
      timeZone: "Europe/Paris",
      periods: [
        { modeName: "Sleep", days: [0, 1, 2, 3, 4, 5, 6], ranges: [{ start: "22:00", end: "08:00" }] },
        { modeName: "Lunch", days: [1, 3], ranges: [{ start: "12:00", end: "13:30" }] },
      ],
      deviceId: "dev_phone",
    });
  });

  it("is null when no mode sets away times, so the computers forget theirs", () => {
    expect(
      awayScheduleOf(
        [SLEEP_MODE, WORK_MODE, { ...lunch, on: false }],
        { timeZone: "UTC", deviceId: "dev_phone" },
        NAMES,
      ),
    ).toBeNull();
  });

  it("names an unnamed mode as the screen does", () => {
    expect(ringModeName({ ...lunch, name: "  " }, NAMES)).toBe("Mode");
    expect(ringModeName(WORK_MODE, NAMES)).toBe("Work");
  });
});
