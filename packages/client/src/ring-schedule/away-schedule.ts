import type { AwaySchedule } from "@ringback/protocol";
import type { RingMode } from "./ring-mode.js";

/** The names a screen gives modes without one of their own. */
export interface ModeNameTexts {
  readonly modeWork: string;
  readonly modeSleep: string;
  readonly modeUnnamed: string;
}

/** A mode's name as shown: the user's, or the preinstalled mode's name in the interface language. */
export function ringModeName(mode: RingMode, t: ModeNameTexts): string {
  if (mode.name.trim() !== "") return mode.name;
  if (mode.preset === "work") return t.modeWork;
  if (mode.preset === "sleep") return t.modeSleep;
  return t.modeUnnamed;
}

/**
 * The away times the device's modes give its computers: each mode that is on and marked "away from my computers in
 * these hours", read in the device's time zone and marked with its device id. Null when no mode sets any.
 */
export function awayScheduleOf(
  modes: readonly RingMode[],
  device: { readonly timeZone: string; readonly deviceId: string },
  t: ModeNameTexts,
): AwaySchedule | null {
  const periods = modes
    .filter((mode) => mode.on && mode.away === true)
    .map((mode) => ({
      modeName: ringModeName(mode, t).slice(0, 100),
      days: [...mode.repeat],
      ranges: mode.ranges,
    }));
  return periods.length === 0 ? null : { timeZone: device.timeZone, periods, deviceId: device.deviceId };
}
