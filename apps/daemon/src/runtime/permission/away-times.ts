import { type AwaySchedule, isInTimeRange } from "@ringback/protocol";

const MINUTE_MS = 60_000;
/** The schedule repeats every week; a day more covers a daylight-saving shift. */
const LOOK_BACK_MS = 8 * 24 * 60 * MINUTE_MS;
/** Time zones move their clocks on quarter hours: the offset is read again at each one. */
const OFFSET_STEP_MS = 15 * MINUTE_MS;

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** How far the zone's wall clock is ahead of UTC at a moment, in ms. */
function offsetAt(timeZone: string, atMs: number): number {
  const parts = Object.fromEntries(
    formatterOf(timeZone)
      .formatToParts(new Date(atMs))
      .map((part) => [part.type, Number(part.value)]),
  );
  const wall = Date.UTC(
    parts.year ?? 0,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
  );
  return wall - Math.floor(atMs / MINUTE_MS) * MINUTE_MS;
}

/** The name of the mode whose away time covers a wall-clock moment (as UTC fields), or null. */
function awayModeAtWall(schedule: AwaySchedule, wall: Date): string | null {
  const weekday = wall.getUTCDay();
  const minute = wall.getUTCHours() * 60 + wall.getUTCMinutes();
  const period = schedule.periods.find(
    (candidate) =>
      candidate.days.includes(weekday) && candidate.ranges.some((range) => isInTimeRange(range, minute)),
  );
  return period ? period.modeName : null;
}

/** The mode whose away time covers a moment, in the schedule's time zone; null when none does. */
export function awayModeAt(schedule: AwaySchedule, at: Date): string | null {
  return awayModeAtWall(schedule, new Date(at.getTime() + offsetAt(schedule.timeZone, at.getTime())));
}

export interface ScheduleChange {
  /** The minute the away times last started or ended. */
  readonly at: Date;
  /** The mode that started then, or the one that ended. */
  readonly modeName: string;
}

/**
 * When the away times last started or ended, after `after` and no later than `now`; null when they did not in that
 * time (the schedule repeats weekly, so never more than eight days back). Walks back minute by minute: a week is
 * about 11,500 steps of arithmetic and one reading of the zone's offset per quarter hour.
 */
export function lastScheduleChange(
  schedule: AwaySchedule,
  now: Date,
  after: Date | null,
): ScheduleChange | null {
  const nowMinute = Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS;
  const afterMs = after ? after.getTime() : Number.NEGATIVE_INFINITY;
  const limit = Math.max(nowMinute - LOOK_BACK_MS, Math.floor(afterMs / MINUTE_MS) * MINUTE_MS);
  let offset = offsetAt(schedule.timeZone, nowMinute);
  let later = awayModeAtWall(schedule, new Date(nowMinute + offset));
  for (let at = nowMinute; at - MINUTE_MS >= limit; at -= MINUTE_MS) {
    const earlierAt = at - MINUTE_MS;
    if (earlierAt % OFFSET_STEP_MS === OFFSET_STEP_MS - MINUTE_MS)
      offset = offsetAt(schedule.timeZone, earlierAt);
    const earlier = awayModeAtWall(schedule, new Date(earlierAt + offset));
    if ((earlier === null) !== (later === null)) {
      if (at <= afterMs) return null;
      return { at: new Date(at), modeName: (later ?? earlier) as string };
    }
    later = earlier;
  }
  return null;
}
