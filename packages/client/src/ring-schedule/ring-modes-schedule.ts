import { isRingingAllowedAt, type RingingOutlook, ringingOutlook } from "./day-evaluation.js";
import type { RingMode } from "./ring-mode.js";
import type { RingSchedule } from "./ring-schedule.js";

/** The ring schedule of the user's ring modes: what the call reducer's `isRingingAllowed` asks. */
export class RingModesSchedule implements RingSchedule {
  #modes: readonly RingMode[];

  constructor(modes: readonly RingMode[]) {
    this.#modes = modes;
  }

  get modes(): readonly RingMode[] {
    return this.#modes;
  }

  set modes(modes: readonly RingMode[]) {
    this.#modes = modes;
  }

  isRingingAllowed(at: Date): boolean {
    return isRingingAllowedAt(this.#modes, at);
  }

  outlook(from: Date): RingingOutlook {
    return ringingOutlook(this.#modes, from);
  }
}
