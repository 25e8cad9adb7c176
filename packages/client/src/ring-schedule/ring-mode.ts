import { isInTimeRange, minuteOf, TimeRange } from "@ringback/protocol";
import { z } from "zod";

/** Days as `Date.getDay()` numbers them: 0 is Sunday. */
const WEEKDAYS = [0, 1, 2, 3, 4, 5, 6] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const EVERY_DAY: readonly Weekday[] = WEEKDAYS;
export const WORKDAYS: readonly Weekday[] = [1, 2, 3, 4, 5];

export { minuteOf, TimeRange };

/** "Ring only in these ranges" or "do not ring in these ranges". */
export const RingRule = z.enum(["ring-only-in", "do-not-ring-in"]);
export type RingRule = z.infer<typeof RingRule>;

const RING_MODE_PRESETS = ["work", "sleep"] as const;

export const RingMode = z.object({
  id: z.string().min(1),
  /** The user's name for the mode; empty for a preinstalled mode never renamed (the screen names it). */
  name: z.string(),
  preset: z.enum(RING_MODE_PRESETS).nullable().default(null),
  ranges: z.array(TimeRange).min(1),
  /** The weekdays the mode applies to. */
  repeat: z.array(z.number().int().min(0).max(6)).transform((days) => normaliseDays(days as Weekday[])),
  rule: RingRule,
  on: z.boolean(),
  /**
   * "Away from my computers in these hours": while the mode is on, its ranges set the computers' presence to away.
   * Absent (modes saved before it, or built without it): false.
   */
  away: z.boolean().optional(),
});
export type RingMode = z.infer<typeof RingMode>;

export function normaliseDays(days: readonly Weekday[]): Weekday[] {
  return [...new Set(days)].sort((a, b) => a - b);
}

/** Whether one mode lets the device ring at a minute of a day it applies to. */
export function modeAllowsRinging(mode: RingMode, minute: number): boolean {
  const isInAnyRange = mode.ranges.some((range) => isInTimeRange(range, minute));
  return mode.rule === "ring-only-in" ? isInAnyRange : !isInAnyRange;
}

export function appliesOn(mode: RingMode, weekday: Weekday): boolean {
  return mode.on && mode.repeat.includes(weekday);
}
