/**
 * Whether the device may ring at a moment. Part 1 rings at any time; the ring modes of part 2 (time ranges,
 * weekday repeat, "ring only in" / "do not ring in") implement this same interface.
 */
export interface RingSchedule {
  isRingingAllowed(at: Date): boolean;
}

/** A day without active modes rings any time (the spec's default). */
export const ALWAYS_RING: RingSchedule = { isRingingAllowed: () => true };
