import type { RingMode } from "../../packages/client/src/ring-schedule/ring-mode.ts";

export type { RingMode };

/** A mode that is on every day and forbids ringing all day (a range whose start equals its end is the whole day). */
export const NEVER_RING_MODE: RingMode = {
  id: "e2e-never-ring",
  name: "Never ring (e2e)",
  preset: null,
  ranges: [{ start: "00:00", end: "00:00" }],
  repeat: [0, 1, 2, 3, 4, 5, 6],
  rule: "do-not-ring-in",
  on: true,
};
