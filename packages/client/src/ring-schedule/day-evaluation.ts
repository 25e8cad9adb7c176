import {
  nextWeeklyChange,
  RING_SCHEDULE_LOOKAHEAD_MS,
  type WallClock,
  type WeeklySchedule,
  wallClockAt,
} from "@ringback/protocol";
import { appliesOn, minuteOf, modeAllowsRinging, type RingMode, type Weekday } from "./ring-mode.js";

/**
 * Whether the device may ring at a wall-clock minute. Each day is evaluated on its own, over 0:00-24:00: only the
 * modes that are on and repeat on that weekday count, and a range crossing midnight covers the day's early hours and
 * its late hours. A day without active modes rings any time. Older saved modes may leave several active modes on one
 * day; then the device rings only when every one of them allows it.
 */
function isRingingAllowedAtClock(modes: readonly RingMode[], clock: WallClock): boolean {
  return modes
    .filter((mode) => appliesOn(mode, clock.weekday as Weekday))
    .every((mode) => modeAllowsRinging(mode, clock.minute));
}

/** Whether the device may ring at a moment, on the device's own clock. */
export function isRingingAllowedAt(modes: readonly RingMode[], at: Date): boolean {
  return isRingingAllowedAtClock(modes, wallClockAt(undefined, at));
}

/** Ringing allowed or not, as a weekly schedule on the device's own clock. */
function ringingHours(modes: readonly RingMode[]): WeeklySchedule<boolean> {
  return {
    timeZone: undefined,
    changeMinutes: modes
      .filter((mode) => mode.on)
      .flatMap((mode) => mode.ranges.flatMap((range) => [minuteOf(range.start), minuteOf(range.end)])),
    stateAt: (clock) => isRingingAllowedAtClock(modes, clock),
  };
}

export interface RingingOutlook {
  /** Ringing is allowed now. */
  readonly isAllowed: boolean;
  /** When that changes next, within the look-ahead (one week); null when it does not change in that time. */
  readonly changesAt: Date | null;
}

/** Ringing now, and when that changes next ("calls ring again at ..."), up to RING_SCHEDULE_LOOKAHEAD_MS ahead. */
export function ringingOutlook(modes: readonly RingMode[], from: Date): RingingOutlook {
  return {
    isAllowed: isRingingAllowedAt(modes, from),
    changesAt: nextWeeklyChange(
      ringingHours(modes),
      from,
      new Date(from.getTime() + RING_SCHEDULE_LOOKAHEAD_MS),
    ),
  };
}
