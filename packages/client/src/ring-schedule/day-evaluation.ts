import { RING_SCHEDULE_LOOKAHEAD_MS } from "@ringback/protocol";
import { appliesOn, minuteOf, modeAllowsRinging, type RingMode, type Weekday } from "./ring-mode.js";

/**
 * Whether the device may ring at a moment (the device's local time). Each day is evaluated on its own, over
 * 0:00-24:00: only the modes that are on and repeat on that weekday count, and a range crossing midnight covers the
 * day's early hours and its late hours. A day without active modes rings any time. Older saved modes may leave
 * several active modes on one day; then the device rings only when every one of them allows it.
 */
export function isRingingAllowedAt(modes: readonly RingMode[], at: Date): boolean {
  const weekday = at.getDay() as Weekday;
  const minute = at.getHours() * 60 + at.getMinutes();
  return modes.filter((mode) => appliesOn(mode, weekday)).every((mode) => modeAllowsRinging(mode, minute));
}

export interface RingingOutlook {
  /** Ringing is allowed now. */
  readonly isAllowed: boolean;
  /** When that changes next, within the look-ahead (one week); null when it does not change in that time. */
  readonly changesAt: Date | null;
}

/**
 * Ringing now, and when that changes next ("calls ring again at ..."). Whether ringing is allowed changes only at
 * a midnight or at a range's start or end, so only those moments are evaluated, day by day, up to
 * RING_SCHEDULE_LOOKAHEAD_MS ahead and never further.
 */
export function ringingOutlook(modes: readonly RingMode[], from: Date): RingingOutlook {
  const isAllowed = isRingingAllowedAt(modes, from);
  const limit = from.getTime() + RING_SCHEDULE_LOOKAHEAD_MS;
  const boundaryMinutes = new Set<number>([0]);
  for (const mode of modes) {
    if (!mode.on) continue;
    for (const range of mode.ranges) {
      boundaryMinutes.add(minuteOf(range.start));
      boundaryMinutes.add(minuteOf(range.end));
    }
  }
  const minutes = [...boundaryMinutes].sort((a, b) => a - b);
  const lookaheadDays = Math.ceil(RING_SCHEDULE_LOOKAHEAD_MS / 86_400_000);
  for (let day = 0; day <= lookaheadDays; day++) {
    for (const minute of minutes) {
      // Local midnight plus minutes: Date normalises 24:00 to the next midnight and follows daylight-saving shifts.
      const at = new Date(from.getFullYear(), from.getMonth(), from.getDate() + day, 0, minute);
      if (at.getTime() <= from.getTime()) continue;
      if (at.getTime() > limit) return { isAllowed, changesAt: null };
      if (isRingingAllowedAt(modes, at) !== isAllowed) return { isAllowed, changesAt: at };
    }
  }
  return { isAllowed, changesAt: null };
}
