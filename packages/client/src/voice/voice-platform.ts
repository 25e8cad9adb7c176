import type { VoiceSettings } from "./voice-settings.js";

/** A voice the user can choose in Settings > Voice. */
export interface VoiceOption {
  readonly id: string;
  readonly name: string;
  /** BCP 47 tag. */
  readonly language: string;
  readonly isDefault: boolean;
  /** When the platform (or the voice's well-known name) says so; the language's first female voice is preferred. */
  readonly gender?: "female" | "male";
}

/** A call's voice, ready before the call rings. */
export interface PreparedVoice {
  /** Reads one sentence: "done" when read, "cancelled" when stopped; rejects when the engine fails. */
  speak(sentence: string): Promise<"done" | "cancelled">;
  /** Stops the sentence being read. */
  cancel(): void;
}

/**
 * A voice platform: the browser's own speech synthesis, or an OpenAI-compatible speech endpoint whose `prepare`
 * synthesises every sentence to audio before the call rings. `prepare` reads the voice and speed from the settings.
 */
export interface VoicePlatform {
  readonly id: string;
  listVoices(settings: VoiceSettings): Promise<VoiceOption[]>;
  /** Prepares every sentence of a call; rejects with VoiceUnavailableError when it cannot (the call then does not ring). */
  prepare(sentences: readonly string[], language: string, settings: VoiceSettings): Promise<PreparedVoice>;
}

function normaliseTag(tag: string): string {
  return tag.replace("_", "-").toLowerCase();
}

/**
 * The voice to read a call with: the user's choice when this device has it, else a voice of the brief's language
 * (exact region first), else the platform default. Null when the platform has no voices listed.
 */
export function pickVoice(
  voices: readonly VoiceOption[],
  voiceId: string | null,
  language: string,
): VoiceOption | null {
  const chosen = voiceId === null ? undefined : voices.find((voice) => voice.id === voiceId);
  if (chosen) return chosen;
  const wanted = normaliseTag(language);
  const primary = wanted.split("-")[0];
  return (
    voices.find((voice) => normaliseTag(voice.language) === wanted) ??
    voices.find((voice) => normaliseTag(voice.language).split("-")[0] === primary) ??
    voices.find((voice) => voice.isDefault) ??
    voices[0] ??
    null
  );
}
