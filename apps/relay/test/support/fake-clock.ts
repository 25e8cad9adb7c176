import type { Clock } from "../../src/clock.js";

/** A clock that moves only when told. */
export class FakeClock implements Clock {
  #now: number;

  constructor(start = Date.UTC(2026, 0, 1, 9, 0, 0)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  advance(ms: number): void {
    this.#now += ms;
  }
}
