/** The relay's source of time; tests inject one they can move forward. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
