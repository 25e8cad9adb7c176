import type { RingSound } from "./ring-sound.js";

/**
 * What rings, as the app provides it (WebAudio in the web app, a bell in a terminal). Honest about autoplay: it says
 * when the platform keeps it silent.
 */
export interface Ringer {
  /** True while the platform blocks sound (in a browser: no user gesture yet on this page). */
  readonly isSoundBlocked: boolean;
  /** Call from a user gesture: unlocks sound. Resolves true when sound can play. */
  unlock(): Promise<boolean>;
  /** Plays until `stop`; replaces whatever was playing. */
  start(sound: RingSound): void;
  stop(): void;
}
