import { CLASSIC_TONE, NEEDS_YOU_TONE, RINGBACK_TONE, type Tone } from "../audio/tones.js";

/** A North American ring: 440 + 480 Hz, 2 s on, 4 s off. */
const LONG_RING_TONE: Tone = {
  id: "long-ring",
  frequenciesHz: [440, 480],
  cadence: [{ onMs: 2000, offMs: 4000 }],
};

/** Three short high chirps, then a pause. */
const CHIRP_TONE: Tone = {
  id: "chirp",
  frequenciesHz: [1400],
  cadence: [
    { onMs: 100, offMs: 100 },
    { onMs: 100, offMs: 100 },
    { onMs: 100, offMs: 1500 },
  ],
};

/** Four even pulses, then a pause. */
const PULSE_TONE: Tone = {
  id: "pulse",
  frequenciesHz: [800],
  cadence: [
    { onMs: 250, offMs: 250 },
    { onMs: 250, offMs: 250 },
    { onMs: 250, offMs: 250 },
    { onMs: 250, offMs: 2000 },
  ],
};

/** A soft major chord, struck twice. */
const CHORD_TONE: Tone = {
  id: "chord",
  frequenciesHz: [523.25, 659.25, 783.99],
  cadence: [
    { onMs: 300, offMs: 100 },
    { onMs: 300, offMs: 2000 },
  ],
};

/** The 7 built-in tones, generated in the page with WebAudio (nothing to download). */
export const BUILTIN_TONES: readonly Tone[] = [
  CLASSIC_TONE,
  NEEDS_YOU_TONE,
  RINGBACK_TONE,
  LONG_RING_TONE,
  CHIRP_TONE,
  PULSE_TONE,
  CHORD_TONE,
];

export function builtinTone(id: string): Tone | undefined {
  return BUILTIN_TONES.find((tone) => tone.id === id);
}
