import { EVERY_DAY, type RingMode, WORKDAYS } from "./ring-mode.js";

/** Work: weekdays 10:00-19:00, ring only then. Preinstalled, off. */
export const WORK_MODE: RingMode = {
  id: "work",
  name: "",
  preset: "work",
  ranges: [{ start: "10:00", end: "19:00" }],
  repeat: [...WORKDAYS],
  rule: "ring-only-in",
  on: false,
  away: false,
};

/** Sleep: every day 22:00-08:00, do not ring then. Preinstalled, off. */
export const SLEEP_MODE: RingMode = {
  id: "sleep",
  name: "",
  preset: "sleep",
  ranges: [{ start: "22:00", end: "08:00" }],
  repeat: [...EVERY_DAY],
  rule: "do-not-ring-in",
  on: false,
  away: false,
};

export const PREINSTALLED_MODES: readonly RingMode[] = [WORK_MODE, SLEEP_MODE];
