/**
 * Whether the device may ring at a moment. The call reducer asks it when a report arrives, when a voice is ready and
 * on every schedule check; `RingModesSchedule` answers from the user's ring modes.
 */
export interface RingSchedule {
  isRingingAllowed(at: Date): boolean;
}

/** A day without active modes rings any time (the spec's default). */
export const ALWAYS_RING: RingSchedule = { isRingingAllowed: () => true };
