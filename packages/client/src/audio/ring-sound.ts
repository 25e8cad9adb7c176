import type { Tone } from "./tones.js";

/** What a ringer plays: a tone generated in the page, a user's audio file (looped), or nothing. */
export type RingSound =
  | { readonly kind: "tone"; readonly tone: Tone }
  | { readonly kind: "file"; readonly id: string; readonly data: ArrayBuffer }
  | { readonly kind: "silent" };

export function toneSound(tone: Tone): RingSound {
  return { kind: "tone", tone };
}
