import type { VoiceSettings } from "@ringback/client";
import { pickVoice, type VoiceOption } from "@ringback/client";

/** A voice that speaks every language (the speech endpoints' voices). */
export const ANY_LANGUAGE = "mul";

function primaryLanguage(tag: string): string {
  return tag.replace("_", "-").split("-")[0]?.toLowerCase() ?? "";
}

function speaks(voice: VoiceOption, language: string): boolean {
  return voice.language === ANY_LANGUAGE || primaryLanguage(voice.language) === primaryLanguage(language);
}

/** The first female voice of a language; when the platform names no voice's gender, its first voice of it. */
export function firstFemaleVoice(voices: readonly VoiceOption[], language: string): VoiceOption | null {
  const ofLanguage = voices.filter((voice) => speaks(voice, language));
  return (
    ofLanguage.find((voice) => voice.gender === "female") ?? ofLanguage.find((voice) => !voice.gender) ?? null
  );
}

/**
 * The voice to read a language with. The stored voice when it speaks that language; otherwise the voice the user
 * chose for that language before, else the language's first female voice. The stored voice itself is kept, so
 * switching back to its language restores it. Null when the platform lists no voices (its default voice reads).
 */
export function voiceForLanguage(
  settings: Pick<VoiceSettings, "voiceURI" | "voicesByLanguage">,
  voices: readonly VoiceOption[],
  language: string,
): VoiceOption | null {
  const stored = voices.find((voice) => voice.id === settings.voiceURI);
  if (stored && speaks(stored, language)) return stored;
  const chosenBefore = voices.find(
    (voice) => voice.id === settings.voicesByLanguage[primaryLanguage(language)],
  );
  if (chosenBefore && speaks(chosenBefore, language)) return chosenBefore;
  return firstFemaleVoice(voices, language) ?? pickVoice(voices, null, language);
}

/** The settings after the user picks a voice: it becomes the stored voice and the choice for its language. */
export function withChosenVoice(settings: VoiceSettings, voice: VoiceOption | null): VoiceSettings {
  if (!voice) return { ...settings, voiceURI: null };
  const voicesByLanguage =
    voice.language === ANY_LANGUAGE
      ? settings.voicesByLanguage
      : { ...settings.voicesByLanguage, [primaryLanguage(voice.language)]: voice.id };
  return { ...settings, voiceURI: voice.id, voicesByLanguage };
}
