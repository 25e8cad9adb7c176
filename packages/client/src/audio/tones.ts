import { CALL_WAITING_TONE } from "@ringback/protocol";

/** One step of a tone's cadence: sound for `onMs`, then silence for `offMs`. */
export interface ToneStep {
  readonly onMs: number;
  readonly offMs: number;
}

/** A tone generated in the page: sine waves at these frequencies, played in this cadence, repeated. */
export interface Tone {
  readonly id: string;
  readonly frequenciesHz: readonly number[];
  readonly cadence: readonly ToneStep[];
}

/** The default incoming-call tone: the familiar double ring (400 + 450 Hz, 0.4 s on, 0.2 s off, 0.4 s on, 2 s off). */
export const CLASSIC_TONE: Tone = {
  id: "classic",
  frequenciesHz: [400, 450],
  cadence: [
    { onMs: 400, offMs: 200 },
    { onMs: 400, offMs: 2000 },
  ],
};

/**
 * The default "needs you" tone, unlike the finished call's double ring so the person knows an agent waits: three
 * quick high bursts (880 + 1175 Hz, 0.15 s on, 0.08 s off), then 1.2 s off.
 */
export const NEEDS_YOU_TONE: Tone = {
  id: "needs-you",
  frequenciesHz: [880, 1175],
  cadence: [
    { onMs: 150, offMs: 80 },
    { onMs: 150, offMs: 80 },
    { onMs: 150, offMs: 1200 },
  ],
};

/** The default call-waiting tone (played by the dispatch screen while it calls): 450 Hz, 1 s on, 4 s off. */
export const RINGBACK_TONE: Tone = {
  id: "ringback",
  frequenciesHz: [CALL_WAITING_TONE.frequencyHz],
  cadence: [{ onMs: CALL_WAITING_TONE.onMs, offMs: CALL_WAITING_TONE.offMs }],
};

/** The sounding intervals of a tone started at 0 that begin in [fromMs, untilMs), in ms from its start. */
export function toneBursts(
  tone: Tone,
  fromMs: number,
  untilMs: number,
): { startMs: number; endMs: number }[] {
  const periodMs = tone.cadence.reduce((sum, step) => sum + step.onMs + step.offMs, 0);
  if (periodMs <= 0) return [];
  const bursts: { startMs: number; endMs: number }[] = [];
  for (
    let periodStart = Math.floor(fromMs / periodMs) * periodMs;
    periodStart < untilMs;
    periodStart += periodMs
  ) {
    let at = periodStart;
    for (const step of tone.cadence) {
      if (at >= fromMs && at < untilMs && step.onMs > 0) bursts.push({ startMs: at, endMs: at + step.onMs });
      at += step.onMs + step.offMs;
    }
  }
  return bursts;
}
