import { describe, expect, it } from "vitest";
import {
  isInTimeRange,
  lastWeeklyChange,
  minuteOf,
  nextWeeklyChange,
  type TimeRange,
  type WeeklySchedule,
  wallClockAt,
} from "../src/index.js";

const MINUTE_MS = 60_000;
const QUARTER_HOUR_MS = 15 * MINUTE_MS;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** Zones with daylight saving on either side of the equator, at midnight, by 30 minutes, and odd offsets. */
const ZONES = [
  "UTC",
  "Europe/Paris",
  "Europe/London",
  "America/New_York",
  "America/Santiago",
  "America/Havana",
  "America/St_Johns",
  "Australia/Lord_Howe",
  "Pacific/Chatham",
  "Asia/Kolkata",
  "Asia/Kathmandu",
  "Africa/Casablanca",
];
/** Nights the clocks move somewhere, so that most windows hold one. */
const SHIFT_DAYS = [
  "2026-03-08",
  "2026-03-29",
  "2026-04-05",
  "2026-09-06",
  "2026-10-04",
  "2026-10-25",
  "2026-11-01",
];

interface Period {
  readonly name: string;
  readonly days: readonly number[];
  readonly ranges: readonly TimeRange[];
}

/** A small seeded generator (mulberry32), so a failure can be replayed. */
function randomNumbers(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function timeOf(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
}

function randomPeriods(random: () => number): Period[] {
  const pick = (count: number) => Math.floor(random() * count);
  // Often on the hour or its quarters, often in the small hours when clocks move, sometimes any minute, sometimes
  // 24:00; a start equal to its end is all day.
  const time = () => {
    const kind = pick(10);
    if (kind === 0) return "24:00";
    if (kind < 3) return timeOf(pick(1440));
    if (kind < 6) return timeOf(pick(240));
    return timeOf(pick(96) * 15);
  };
  return Array.from({ length: 1 + pick(3) }, (_, index) => ({
    name: `mode ${index}`,
    days: [0, 1, 2, 3, 4, 5, 6].filter(() => random() < 0.6).concat(pick(7)),
    ranges: Array.from({ length: 1 + pick(3) }, () => {
      const start = time();
      return { start: start === "24:00" ? "00:00" : start, end: pick(12) === 0 ? start : time() };
    }),
  }));
}

/** The first period covering a wall-clock minute names the state; none is null. */
function scheduleOf(periods: readonly Period[], timeZone: string | undefined): WeeklySchedule<string | null> {
  // The ranges' minutes read once: the walk asks for the state some two million times.
  const readPeriods = periods.map((period) => ({
    ...period,
    ranges: period.ranges.map((range) => ({ start: minuteOf(range.start), end: minuteOf(range.end), range })),
  }));
  const covers = (range: { start: number; end: number }, minute: number) =>
    range.start === range.end ||
    (range.start < range.end
      ? minute >= range.start && minute < range.end
      : minute >= range.start || minute < range.end);
  return {
    timeZone,
    changeMinutes: readPeriods.flatMap((period) =>
      period.ranges.flatMap((range) => [range.start, range.end]),
    ),
    stateAt: (clock) =>
      readPeriods.find(
        (period) =>
          period.days.includes(clock.weekday) && period.ranges.some((range) => covers(range, clock.minute)),
      )?.name ?? null,
  };
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset read from its "GMT+05:45" name: apart from the module's own reading of it. */
function offsetAt(timeZone: string | undefined, atMs: number): number {
  if (timeZone === undefined) return -new Date(atMs).getTimezoneOffset() * MINUTE_MS;
  let formatter = offsetFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" });
    offsetFormatters.set(timeZone, formatter);
  }
  const name =
    formatter.formatToParts(new Date(atMs)).find((part) => part.type === "timeZoneName")?.value ?? "";
  const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name);
  if (!match) return 0;
  const minutes = Number(match[2]) * 60 + Number(match[3]);
  return (match[1] === "-" ? -minutes : minutes) * MINUTE_MS;
}

/**
 * The changes found the slow way: every minute from `fromMs` to `toMs` read on the wall clock and compared with the
 * minute before (zones move their clocks on quarter hours, so the offset is read at each one).
 */
function walkedChanges<State>(schedule: WeeklySchedule<State>, fromMs: number, toMs: number): number[] {
  const changes: number[] = [];
  const stateAt = (atMs: number, offsetMs: number) => {
    const wall = new Date(atMs + offsetMs);
    return schedule.stateAt({
      weekday: wall.getUTCDay(),
      minute: wall.getUTCHours() * 60 + wall.getUTCMinutes(),
    });
  };
  let offset = offsetAt(schedule.timeZone, fromMs);
  let earlier = stateAt(fromMs, offset);
  for (let at = fromMs + MINUTE_MS; at <= toMs; at += MINUTE_MS) {
    if (at % QUARTER_HOUR_MS === 0) offset = offsetAt(schedule.timeZone, at);
    const later = stateAt(at, offset);
    if (later !== earlier) changes.push(at);
    earlier = later;
  }
  return changes;
}

describe("weekly schedules", () => {
  it("reads the wall clock of a zone, and of this runtime's own zone", () => {
    // Tuesday 24 November 2026, 11:30 in Paris (UTC+1); Sunday 29 March 2026 03:00 in Paris is 01:00 UTC.
    expect(wallClockAt("Europe/Paris", new Date("2026-11-24T10:30:00Z"))).toEqual({
      weekday: 2,
      minute: 690,
    });
    expect(wallClockAt("Europe/Paris", new Date("2026-03-29T01:00:00Z"))).toEqual({
      weekday: 0,
      minute: 180,
    });
    const local = new Date(2026, 10, 24, 11, 30);
    expect(wallClockAt(undefined, local)).toEqual({ weekday: local.getDay(), minute: 690 });
  });

  it("finds both ends of the hour the clocks repeat, and the moment they skip", () => {
    const night = scheduleOf(
      [{ name: "Away", days: [0], ranges: [{ start: "02:15", end: "02:45" }] }],
      "Europe/Paris",
    );
    // 25 October 2026: 02:00-03:00 CEST, then 02:00-03:00 CET again. Away from each 02:15 to each 02:45.
    const autumn = new Date("2026-10-25T00:00:00Z");
    expect(nextWeeklyChange(night, autumn, new Date("2026-10-25T05:00:00Z"))).toEqual(
      new Date("2026-10-25T00:15:00Z"),
    );
    expect(lastWeeklyChange(night, autumn, new Date("2026-10-25T05:00:00Z"))).toEqual(
      new Date("2026-10-25T01:45:00Z"),
    );
    // 29 March 2026: the clocks go from 02:00 to 03:00 CEST, so 02:15-02:45 never comes, and 02:15-05:00 starts with
    // the jump (01:00 UTC).
    const spring = { from: new Date("2026-03-28T23:00:00Z"), until: new Date("2026-03-29T05:00:00Z") };
    expect(nextWeeklyChange(night, spring.from, spring.until)).toBeNull();
    const early = scheduleOf(
      [{ name: "Away", days: [0], ranges: [{ start: "02:15", end: "05:00" }] }],
      "Europe/Paris",
    );
    expect(nextWeeklyChange(early, spring.from, spring.until)).toEqual(new Date("2026-03-29T01:00:00Z"));
  });

  it("reads ranges as isInTimeRange does", () => {
    const random = randomNumbers(7);
    for (const period of Array.from({ length: 50 }, () => randomPeriods(random)).flat()) {
      const schedule = scheduleOf([period], "UTC");
      for (let minute = 0; minute < 1440; minute += 5) {
        const isCovered = period.ranges.some((range) => isInTimeRange(range, minute));
        expect(schedule.stateAt({ weekday: period.days[0]!, minute }) !== null).toBe(isCovered);
      }
    }
  });

  it("agrees with a minute-by-minute walk on random schedules, zones and moments", {
    timeout: 120_000,
  }, () => {
    const random = randomNumbers(35);
    for (let round = 0; round < 300; round++) {
      const periods = randomPeriods(random);
      const timeZone = round % 25 === 0 ? undefined : ZONES[Math.floor(random() * ZONES.length)];
      const schedule = scheduleOf(periods, timeZone);
      const shiftDay = Date.parse(`${SHIFT_DAYS[Math.floor(random() * SHIFT_DAYS.length)]}T00:00:00Z`);
      const now = Math.floor(shiftDay + (random() * 4 - 1) * DAY_MS);
      const since = now - Math.floor(random() * 8 * DAY_MS);
      const walked = walkedChanges(
        schedule,
        Math.floor(since / MINUTE_MS) * MINUTE_MS,
        Math.floor(now / MINUTE_MS) * MINUTE_MS,
      );
      const scenario = JSON.stringify({
        round,
        timeZone,
        periods,
        since: new Date(since),
        now: new Date(now),
      });
      const last = walked[walked.length - 1];
      const first = walked[0];
      expect(lastWeeklyChange(schedule, new Date(since), new Date(now)), scenario).toEqual(
        last === undefined ? null : new Date(last),
      );
      expect(nextWeeklyChange(schedule, new Date(since), new Date(now)), scenario).toEqual(
        first === undefined ? null : new Date(first),
      );
    }
  });
});
