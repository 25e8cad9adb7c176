import { RING_SCHEDULE_LOOKAHEAD_MS } from "@ringback/protocol";
import { describe, expect, it } from "vitest";
import { isRingingAllowedAt, ringingOutlook } from "./day-evaluation.js";
import { saveMode, setModeOn } from "./mode-overlap.js";
import { PREINSTALLED_MODES, SLEEP_MODE, WORK_MODE } from "./preinstalled-modes.js";
import { EVERY_DAY, type RingMode, type Weekday } from "./ring-mode.js";
import { readStoredModes } from "./stored-modes.js";

/** Local time on a day of the week of March 2026 (2 March 2026 is a Monday), so tests hold in any time zone. */
function at(weekday: Weekday, time: string): Date {
  const [hours, minutes] = time.split(":").map(Number);
  const dayOfMonth = weekday === 0 ? 8 : 1 + weekday;
  return new Date(2026, 2, dayOfMonth, hours, minutes);
}

const on = (mode: RingMode): RingMode => ({ ...mode, on: true });

function mode(overrides: Partial<RingMode> & Pick<RingMode, "id">): RingMode {
  return {
    name: overrides.id,
    preset: null,
    ranges: [{ start: "09:00", end: "17:00" }],
    repeat: [...EVERY_DAY],
    rule: "ring-only-in",
    on: true,
    away: false,
    ...overrides,
  };
}

describe("ring modes: preinstalled", () => {
  it("has work (weekdays 10-19, ring only then) and sleep (every day 22-08, do not ring), both off", () => {
    const modes = readStoredModes(undefined);
    expect(modes).toEqual(PREINSTALLED_MODES);
    expect(modes.every((candidate) => !candidate.on)).toBe(true);
    expect(WORK_MODE).toMatchObject({ repeat: [1, 2, 3, 4, 5], rule: "ring-only-in" });
    expect(SLEEP_MODE).toMatchObject({ repeat: [0, 1, 2, 3, 4, 5, 6], rule: "do-not-ring-in" });
  });

  it("rings any time on a day without active modes", () => {
    expect(isRingingAllowedAt(PREINSTALLED_MODES, at(3, "03:00"))).toBe(true);
    expect(isRingingAllowedAt([on(WORK_MODE)], at(6, "03:00"))).toBe(true);
  });
});

describe("ring modes: one day at a time", () => {
  it("rings only inside a ring-only range", () => {
    const work = [on(WORK_MODE)];
    expect(isRingingAllowedAt(work, at(1, "09:59"))).toBe(false);
    expect(isRingingAllowedAt(work, at(1, "10:00"))).toBe(true);
    expect(isRingingAllowedAt(work, at(1, "18:59"))).toBe(true);
    expect(isRingingAllowedAt(work, at(1, "19:00"))).toBe(false);
  });

  it("reads a range crossing midnight as the day's early and late hours", () => {
    const sleep = [on(SLEEP_MODE)];
    expect(isRingingAllowedAt(sleep, at(2, "23:30"))).toBe(false);
    expect(isRingingAllowedAt(sleep, at(2, "00:10"))).toBe(false);
    expect(isRingingAllowedAt(sleep, at(2, "07:59"))).toBe(false);
    expect(isRingingAllowedAt(sleep, at(2, "08:00"))).toBe(true);
    expect(isRingingAllowedAt(sleep, at(2, "21:59"))).toBe(true);
  });

  it("evaluates each day over 0:00-24:00: a crossing range does not spill into a day the mode skips", () => {
    const weekdayNights = [on({ ...SLEEP_MODE, repeat: [1, 2, 3, 4, 5] })];
    // Friday 23:00 is a quiet night; Saturday 01:00 belongs to Saturday, which the mode does not repeat on.
    expect(isRingingAllowedAt(weekdayNights, at(5, "23:00"))).toBe(false);
    expect(isRingingAllowedAt(weekdayNights, at(6, "01:00"))).toBe(true);
    // Monday 01:00 is quiet although Sunday night is not.
    expect(isRingingAllowedAt(weekdayNights, at(0, "23:00"))).toBe(true);
    expect(isRingingAllowedAt(weekdayNights, at(1, "01:00"))).toBe(false);
  });

  it("treats equal start and end, and 00:00-24:00, as the whole day", () => {
    const allDay = (start: string, end: string) => [
      mode({ id: "m", rule: "do-not-ring-in", ranges: [{ start, end }] }),
    ];
    for (const time of ["00:00", "12:00", "23:59"]) {
      expect(isRingingAllowedAt(allDay("00:00", "24:00"), at(4, time))).toBe(false);
      expect(isRingingAllowedAt(allDay("07:00", "07:00"), at(4, time))).toBe(false);
    }
  });

  it("ignores modes that are off", () => {
    expect(isRingingAllowedAt([{ ...WORK_MODE, on: false }], at(1, "03:00"))).toBe(true);
  });
});

describe("ring modes: overlapping days", () => {
  it("turning a mode on turns off the modes sharing a day with it, and says which", () => {
    const weekend = mode({ id: "weekend", repeat: [0, 6] });
    const { modes, turnedOff } = setModeOn([on(WORK_MODE), SLEEP_MODE, weekend], "sleep", true);
    expect(turnedOff.map((off) => off.id)).toEqual(["work", "weekend"]);
    expect(modes.filter((candidate) => candidate.on).map((candidate) => candidate.id)).toEqual(["sleep"]);
  });

  it("keeps modes on together when their days do not overlap", () => {
    const weekend = mode({ id: "weekend", repeat: [0, 6], on: false });
    const { modes, turnedOff } = setModeOn([on(WORK_MODE), weekend], "weekend", true);
    expect(turnedOff).toEqual([]);
    expect(modes.every((candidate) => candidate.on)).toBe(true);
    expect(isRingingAllowedAt(modes, at(6, "20:00"))).toBe(false);
    expect(isRingingAllowedAt(modes, at(6, "10:00"))).toBe(true);
  });

  it("applies the rule to a mode saved on with days that now overlap", () => {
    const weekend = on(mode({ id: "weekend", repeat: [0, 6] }));
    const { turnedOff } = saveMode([on(WORK_MODE), weekend], { ...weekend, repeat: [5, 6] });
    expect(turnedOff.map((off) => off.id)).toEqual(["work"]);
  });
});

describe("ring modes: look-ahead", () => {
  it("says when ringing comes back, across midnight", () => {
    const outlook = ringingOutlook([on(SLEEP_MODE)], at(2, "23:00"));
    expect(outlook.isAllowed).toBe(false);
    expect(outlook.changesAt).toEqual(at(3, "08:00"));
  });

  it("says when ringing stops next", () => {
    const outlook = ringingOutlook([on(WORK_MODE)], at(5, "18:30"));
    expect(outlook).toEqual({ isAllowed: true, changesAt: at(5, "19:00") });
    // Friday evening: the next ringing time is Monday 10:00, past the weekend without active modes.
    expect(ringingOutlook([on(WORK_MODE)], at(5, "19:30")).changesAt).toEqual(at(6, "00:00"));
  });

  it("looks ahead at most one week", () => {
    const never = [mode({ id: "never", rule: "do-not-ring-in", ranges: [{ start: "00:00", end: "24:00" }] })];
    const from = at(1, "12:00");
    expect(ringingOutlook(never, from)).toEqual({ isAllowed: false, changesAt: null });
    const onlyNextWeek = [
      mode({ id: "a", rule: "do-not-ring-in", ranges: [{ start: "00:00", end: "24:00" }], repeat: [1] }),
    ];
    // Monday is silent, so ringing comes back on Tuesday's midnight, well inside the week.
    const outlook = ringingOutlook(onlyNextWeek, from);
    expect(outlook.changesAt).toEqual(at(2, "00:00"));
    expect(outlook.changesAt!.getTime() - from.getTime()).toBeLessThanOrEqual(RING_SCHEDULE_LOOKAHEAD_MS);
  });

  it("finds the first change exactly, never past the limit, from any moment of the week", () => {
    const modes = [on(WORK_MODE), mode({ id: "weekend", repeat: [0, 6], rule: "do-not-ring-in" })];
    for (let hour = 0; hour < 24 * 14; hour += 7) {
      const from = new Date(2026, 2, 2, hour, 13);
      const { isAllowed, changesAt } = ringingOutlook(modes, from);
      expect(isAllowed).toBe(isRingingAllowedAt(modes, from));
      expect(changesAt).not.toBeNull();
      const change = changesAt!.getTime();
      expect(change - from.getTime()).toBeLessThanOrEqual(RING_SCHEDULE_LOOKAHEAD_MS);
      expect(isRingingAllowedAt(modes, changesAt!)).toBe(!isAllowed);
      // Nothing changed before it: every minute boundary on the way has the same answer.
      for (let probe = from.getTime() + 60_000; probe < change; probe += 29 * 60_000) {
        expect(isRingingAllowedAt(modes, new Date(probe))).toBe(isAllowed);
      }
    }
  });
});

describe("ring modes: saved by older versions", () => {
  it("apply to every day and keep their on state", () => {
    const modes = readStoredModes([
      {
        id: "quiet",
        name: "Quiet",
        ranges: [{ start: "12:00", end: "14:00" }],
        rule: "do-not-ring-in",
        on: true,
      },
      { name: "Desk", start: "09:00", end: "17:00", rule: "ring-only-in", enabled: false },
    ]);
    expect(modes).toEqual([
      expect.objectContaining({ id: "quiet", repeat: [0, 1, 2, 3, 4, 5, 6], on: true }),
      expect.objectContaining({ id: "mode-1", name: "Desk", repeat: [0, 1, 2, 3, 4, 5, 6], on: false }),
    ]);
    expect(isRingingAllowedAt(modes, at(0, "13:00"))).toBe(false);
    expect(isRingingAllowedAt(modes, at(0, "15:00"))).toBe(true);
  });

  it("rings only when every active mode allows it, when older modes left several on for one day", () => {
    const modes = readStoredModes([
      { id: "a", name: "A", ranges: [{ start: "09:00", end: "18:00" }], rule: "ring-only-in", on: true },
      { id: "b", name: "B", ranges: [{ start: "12:00", end: "13:00" }], rule: "do-not-ring-in", on: true },
    ]);
    expect(isRingingAllowedAt(modes, at(3, "10:00"))).toBe(true);
    expect(isRingingAllowedAt(modes, at(3, "12:30"))).toBe(false);
    expect(isRingingAllowedAt(modes, at(3, "20:00"))).toBe(false);
  });

  it("reads today's modes back unchanged and leaves out what it cannot read", () => {
    const today = [on(WORK_MODE), SLEEP_MODE];
    expect(readStoredModes(JSON.parse(JSON.stringify(today)))).toEqual(today);
    expect(readStoredModes([{ nonsense: true }, on(WORK_MODE)])).toEqual([on(WORK_MODE)]);
  });
});
