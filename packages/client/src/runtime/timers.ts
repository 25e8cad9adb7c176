/** A timer's handle, as the timers that made it hand it out. */
export type TimerHandle = unknown;

/**
 * The timers the client schedules its retries, reconnects and checks with. The platform's by default (browsers and
 * Node both have them); a host with its own event loop, or a test, gives its own.
 */
export interface Timers {
  setTimeout(callback: () => void, delayMs: number): TimerHandle;
  clearTimeout(handle: TimerHandle): void;
  setInterval(callback: () => void, everyMs: number): TimerHandle;
  clearInterval(handle: TimerHandle): void;
}

/** What time it is, in milliseconds since the epoch. `Date.now` by default. */
export interface Clock {
  now(): number;
}

export const PLATFORM_TIMERS: Timers = {
  setTimeout: (callback, delayMs) => globalThis.setTimeout(callback, delayMs),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as Parameters<typeof globalThis.clearTimeout>[0]),
  setInterval: (callback, everyMs) => globalThis.setInterval(callback, everyMs),
  clearInterval: (handle) =>
    globalThis.clearInterval(handle as Parameters<typeof globalThis.clearInterval>[0]),
};

export const SYSTEM_CLOCK: Clock = { now: () => Date.now() };
