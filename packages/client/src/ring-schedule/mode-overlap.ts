import type { RingMode } from "./ring-mode.js";

function sharesDay(a: RingMode, b: RingMode): boolean {
  return a.repeat.some((day) => b.repeat.includes(day));
}

export interface ModesChange {
  readonly modes: RingMode[];
  /** Modes this change turned off because they share a day with the mode turned on; the screen names them. */
  readonly turnedOff: RingMode[];
}

/**
 * Saves a mode (new or edited). Several modes may be on at once only when their repeat days do not overlap, so a
 * mode saved on turns off every other mode that is on and shares a day with it.
 */
export function saveMode(modes: readonly RingMode[], mode: RingMode): ModesChange {
  const turnedOff: RingMode[] = [];
  const others = modes.map((other) => {
    if (other.id === mode.id) return mode;
    if (mode.on && other.on && sharesDay(mode, other)) {
      const off = { ...other, on: false };
      turnedOff.push(off);
      return off;
    }
    return other;
  });
  return { modes: others.some((other) => other.id === mode.id) ? others : [...others, mode], turnedOff };
}

/** Turns a mode on or off; on turns off the modes sharing a day with it. */
export function setModeOn(modes: readonly RingMode[], id: string, on: boolean): ModesChange {
  const mode = modes.find((candidate) => candidate.id === id);
  if (!mode) return { modes: [...modes], turnedOff: [] };
  return saveMode(modes, { ...mode, on });
}

export function deleteMode(modes: readonly RingMode[], id: string): RingMode[] {
  return modes.filter((mode) => mode.id !== id);
}
