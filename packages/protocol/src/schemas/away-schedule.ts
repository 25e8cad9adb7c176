import { z } from "zod";

/** "HH:MM" on a 24-hour clock; "24:00" is allowed as the end of a range (the end of the day). */
export const TimeOfDay = z.string().regex(/^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/, "must be HH:MM");

/**
 * A time range of a day. `start` before `end`: from start to end. `start` after `end`: the range crosses midnight,
 * so within one day it covers 0:00 to `end` and `start` to 24:00. Equal: the whole day.
 */
export const TimeRange = z.object({ start: TimeOfDay, end: TimeOfDay });
export type TimeRange = z.infer<typeof TimeRange>;

/** Minutes since midnight of an "HH:MM" time. */
export function minuteOf(time: string): number {
  const [hours, minutes] = time.split(":").map(Number);
  return (hours ?? 0) * 60 + (minutes ?? 0);
}

/** Whether a minute of the day (0-1439) falls in the range, read within one day (see TimeRange). */
export function isInTimeRange(range: TimeRange, minute: number): boolean {
  const start = minuteOf(range.start);
  const end = minuteOf(range.end);
  if (start === end) return true;
  if (start < end) return minute >= start && minute < end;
  return minute >= start || minute < end;
}

/** An IANA time zone this runtime knows ("Europe/Paris"), as `Intl.DateTimeFormat().resolvedOptions()` names it. */
const TimeZone = z
  .string()
  .min(1)
  .max(64)
  .refine((zone) => {
    try {
      new Intl.DateTimeFormat("en-US", { timeZone: zone });
      return true;
    } catch {
      return false;
    }
  }, "must be a time zone such as Europe/Paris");

/** One ring mode's away times: the weekdays it repeats on (0 is Sunday) and its ranges, each day read on its own. */
export const AwayPeriod = z.object({
  /** The mode's name as the device shows it, for "set by the ring mode ...". */
  modeName: z.string().max(100),
  days: z.array(z.number().int().min(0).max(6)).min(1).max(7),
  ranges: z.array(TimeRange).min(1).max(24),
});
export type AwayPeriod = z.infer<typeof AwayPeriod>;

/**
 * The away times a device's ring modes give a computer ("away from my computers in these times"), read in the
 * device's time zone. Each start or end of an away time counts as a change of presence, as the switch does.
 */
export const AwaySchedule = z.object({
  timeZone: TimeZone,
  periods: z.array(AwayPeriod).min(1).max(32),
  /** The device whose modes these are: it takes them back (sends null) once none of its modes sets any. */
  deviceId: z.string().min(1).max(200).optional(),
});
export type AwaySchedule = z.infer<typeof AwaySchedule>;

/** `PUT /presence/schedule` body: a device's away times, or null when none of its modes sets any. */
export const AwayScheduleUpdate = z.object({ schedule: AwaySchedule.nullable() });
export type AwayScheduleUpdate = z.infer<typeof AwayScheduleUpdate>;

/** The away times a computer keeps, with when and by whom they were last sent. */
export const KeptAwaySchedule = AwaySchedule.extend({
  setAt: z.iso.datetime({ offset: true }),
  setBy: z.string().max(200),
});
export type KeptAwaySchedule = z.infer<typeof KeptAwaySchedule>;
