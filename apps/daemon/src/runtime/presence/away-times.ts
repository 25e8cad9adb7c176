import {
  type AwaySchedule,
  isInTimeRange,
  lastWeeklyChange,
  minuteOf,
  type WallClock,
  type WeeklySchedule,
  wallClockAt,
} from "@ringback/protocol";

const MINUTE_MS = 60_000;
/** The schedule repeats every week; a day more covers a daylight-saving shift. */
const LOOK_BACK_MS = 8 * 24 * 60 * MINUTE_MS;

/** The name of the mode whose away time covers a wall-clock minute, or null. */
function awayModeAtClock(schedule: AwaySchedule, clock: WallClock): string | null {
  const period = schedule.periods.find(
    (candidate) =>
      candidate.days.includes(clock.weekday) &&
      candidate.ranges.some((range) => isInTimeRange(range, clock.minute)),
  );
  return period ? period.modeName : null;
}

/** The mode whose away time covers a moment, in the schedule's time zone; null when none does. */
export function awayModeAt(schedule: AwaySchedule, at: Date): string | null {
  return awayModeAtClock(schedule, wallClockAt(schedule.timeZone, at));
}

/** Away or not, as a weekly schedule: going from one mode's away time straight into another's is no change. */
function awayHours(schedule: AwaySchedule): WeeklySchedule<boolean> {
  return {
    timeZone: schedule.timeZone,
    changeMinutes: schedule.periods.flatMap((period) =>
      period.ranges.flatMap((range) => [minuteOf(range.start), minuteOf(range.end)]),
    ),
    stateAt: (clock) => awayModeAtClock(schedule, clock) !== null,
  };
}

export interface ScheduleChange {
  /** The minute the away times last started or ended. */
  readonly at: Date;
  /** The mode that started then, or the one that ended. */
  readonly modeName: string;
}

/**
 * When the away times last started or ended, after `after` and no later than `now`; null when they did not in that
 * time (the schedule repeats weekly, so never more than eight days back).
 */
export function lastScheduleChange(
  schedule: AwaySchedule,
  now: Date,
  after: Date | null,
): ScheduleChange | null {
  const lookBackFrom = now.getTime() - LOOK_BACK_MS;
  const since = new Date(after ? Math.max(after.getTime(), lookBackFrom) : lookBackFrom);
  const at = lastWeeklyChange(awayHours(schedule), since, now);
  if (at === null) return null;
  const modeName = awayModeAt(schedule, at) ?? awayModeAt(schedule, new Date(at.getTime() - MINUTE_MS));
  return { at, modeName: modeName ?? "" };
}
