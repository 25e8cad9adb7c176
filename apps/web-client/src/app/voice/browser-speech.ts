import type { PreparedVoice, VoiceOption, VoicePlatform } from "@ringback/client";
import { clampSpeed, type VoiceSettings } from "@ringback/client";
import { voiceForLanguage } from "./voice-choice.js";
import { genderFromVoiceName } from "./voice-gender.js";
import { VoiceUnavailableError } from "./voice-problem.js";

/**
 * Browsers load their voice list late, and some platforms (headless Chromium, Linux without speech-dispatcher)
 * never have one. The list is asked for once, when the app starts; a call waits for it at most until this long
 * after that, then uses the default voice. A call that comes later never waits, so a platform without voices
 * rings at once (it used to wait this long on every call).
 */
export const VOICES_WAIT_MS = 1_500;
/** The Web Speech API's own rate range (0.1-10) holds the app's 0.5x-2x, so the app's range applies unchanged. */
export const SYNTHESIS_RATE_RANGE = { min: 0.1, max: 10 } as const;

function toOption(voice: SpeechSynthesisVoice): VoiceOption {
  const gender = genderFromVoiceName(voice.name);
  return {
    id: voice.voiceURI,
    name: voice.name,
    language: voice.lang,
    isDefault: voice.default,
    ...(gender ? { gender } : {}),
  };
}

type VoiceListSource = Pick<SpeechSynthesis, "getVoices" | "addEventListener" | "removeEventListener">;

/**
 * Starts asking the platform for its voices now; what it returns gives the current list, waiting only while
 * the first list may still come (until `voiceschanged` or `VOICES_WAIT_MS` after the start).
 */
export function watchVoiceList(synthesis: VoiceListSource): () => Promise<SpeechSynthesisVoice[]> {
  if (synthesis.getVoices().length > 0) return async () => synthesis.getVoices();
  const firstListOrTimeout = new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      synthesis.removeEventListener("voiceschanged", done);
      resolve();
    };
    const timer = setTimeout(done, VOICES_WAIT_MS);
    synthesis.addEventListener("voiceschanged", done);
  });
  return async () => {
    await firstListOrTimeout;
    return synthesis.getVoices();
  };
}

/** The browser's own speech synthesis: no account needed, nothing leaves the device. */
export function createBrowserSpeech(
  synthesis: SpeechSynthesis | undefined = typeof speechSynthesis === "undefined"
    ? undefined
    : speechSynthesis,
): VoicePlatform {
  const loadVoices = synthesis ? watchVoiceList(synthesis) : async () => [];
  return {
    id: "browser",
    async listVoices() {
      return (await loadVoices()).map(toOption);
    },
    async prepare(sentences, language, settings) {
      if (!synthesis || typeof SpeechSynthesisUtterance === "undefined") {
        throw new VoiceUnavailableError({ kind: "no-synthesis" });
      }
      const voices = await loadVoices();
      const picked = voiceForLanguage(settings, voices.map(toOption), language);
      const voice = voices.find((candidate) => candidate.voiceURI === picked?.id) ?? null;
      // The whole utterance list is made before the call rings; speaking then starts at once.
      const utterances = new Map(
        sentences.map((sentence) => [sentence, utterance(sentence, language, voice, settings)]),
      );
      return preparedVoice(
        synthesis,
        (sentence) => utterances.get(sentence) ?? utterance(sentence, language, voice, settings),
      );
    },
  };
}

function utterance(
  text: string,
  language: string,
  voice: SpeechSynthesisVoice | null,
  settings: VoiceSettings,
): SpeechSynthesisUtterance {
  const made = new SpeechSynthesisUtterance(text);
  made.lang = voice?.lang ?? language;
  if (voice) made.voice = voice;
  made.rate = clampSpeed(clampSpeed(settings.speed), SYNTHESIS_RATE_RANGE.min, SYNTHESIS_RATE_RANGE.max);
  return made;
}

function preparedVoice(
  synthesis: SpeechSynthesis,
  utteranceFor: (sentence: string) => SpeechSynthesisUtterance,
): PreparedVoice {
  let isCancelled = false;
  return {
    speak(sentence) {
      isCancelled = false;
      const spoken = utteranceFor(sentence);
      return new Promise((resolve, reject) => {
        spoken.onend = () => resolve(isCancelled ? "cancelled" : "done");
        spoken.onerror = (event) => {
          if (event.error === "interrupted" || event.error === "canceled") resolve("cancelled");
          else reject(new VoiceUnavailableError({ kind: "engine-failed", code: event.error }));
        };
        synthesis.speak(spoken);
      });
    },
    cancel() {
      isCancelled = true;
      synthesis.cancel();
    },
  };
}
