import type { PreparedVoice, VoiceOption, VoicePlatform } from "@ringback/client";
import { clampSpeed, type SpeechEndpoint } from "@ringback/client";
import { ANY_LANGUAGE } from "./voice-choice.js";
import { VoiceUnavailableError } from "./voice-problem.js";

/** OpenAI's `/audio/speech` takes a speed from 0.25 to 4, which holds the app's 0.5x-2x. */
export const SPEECH_ENDPOINT_SPEED_RANGE = { min: 0.25, max: 4 } as const;
/** Sentences synthesised at the same time while a call is prepared. */
const SYNTHESES_IN_FLIGHT = 3;
/** One sentence's synthesis gives up after this. */
const SYNTHESIS_TIMEOUT_MS = 30_000;

/** OpenAI's voices: each speaks every language; the gender says which to prefer for a language's first voice. */
export const OPENAI_VOICES: readonly VoiceOption[] = [
  ["alloy", undefined],
  ["ash", "male"],
  ["ballad", "male"],
  ["coral", "female"],
  ["echo", "male"],
  ["fable", "male"],
  ["nova", "female"],
  ["onyx", "male"],
  ["sage", "female"],
  ["shimmer", "female"],
].map(([id, gender]) => ({
  id: id!,
  name: id!,
  language: ANY_LANGUAGE,
  isDefault: id === "alloy",
  ...(gender ? { gender: gender as "female" | "male" } : {}),
}));

/** The body of one `/audio/speech` request; no `speed` for a platform without the parameter. */
export function speechRequestBody(endpoint: SpeechEndpoint, text: string, voice: string, speed: number) {
  return {
    model: endpoint.model,
    input: text,
    voice,
    response_format: "mp3",
    ...(endpoint.hasSpeed
      ? {
          speed: clampSpeed(
            clampSpeed(speed),
            SPEECH_ENDPOINT_SPEED_RANGE.min,
            SPEECH_ENDPOINT_SPEED_RANGE.max,
          ),
        }
      : {}),
  };
}

/** Synthesises one sentence: straight from the device to the platform, the key sent only there. */
export async function synthesizeSpeech(
  endpoint: SpeechEndpoint,
  text: string,
  voice: string,
  speed: number,
  fetchImpl: typeof fetch = (input, init) => globalThis.fetch(input, init),
): Promise<Blob> {
  const url = `${endpoint.baseUrl.replace(/\/+$/, "")}/audio/speech`;
  let response: Response;
  try {
    response = await fetchImpl(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${endpoint.apiKey}` },
      body: JSON.stringify(speechRequestBody(endpoint, text, voice, speed)),
      signal: AbortSignal.timeout(SYNTHESIS_TIMEOUT_MS),
    });
  } catch (cause) {
    throw new VoiceUnavailableError({ kind: "platform-unreachable", address: endpoint.baseUrl }, { cause });
  }
  if (!response.ok) throw new VoiceUnavailableError({ kind: "platform-status", status: response.status });
  return response.blob();
}

/**
 * An OpenAI-compatible speech endpoint as a voice platform: `prepare` synthesises every sentence before the call
 * rings (a few at a time); `speak` plays the prepared audio.
 */
export function createSpeechEndpointPlatform(fetchImpl?: typeof fetch): VoicePlatform {
  return {
    id: "speech-endpoint",
    async listVoices(settings) {
      return settings.endpoint ? [...OPENAI_VOICES] : [];
    },
    async prepare(sentences, _language, settings) {
      const endpoint = settings.endpoint;
      if (!endpoint) throw new VoiceUnavailableError({ kind: "no-platform" });
      const voice = settings.voiceURI ?? OPENAI_VOICES.find((option) => option.isDefault)!.id;
      const audio = new Map<string, Promise<Blob>>();
      const synthesize = (sentence: string) => {
        let pending = audio.get(sentence);
        if (!pending) {
          pending = synthesizeSpeech(endpoint, sentence, voice, settings.speed, fetchImpl);
          audio.set(sentence, pending);
        }
        return pending;
      };
      const queue = [...new Set(sentences)];
      await Promise.all(
        Array.from({ length: Math.min(SYNTHESES_IN_FLIGHT, queue.length) }, async () => {
          for (let next = queue.shift(); next !== undefined; next = queue.shift()) await synthesize(next);
        }),
      );
      return playback(synthesize);
    },
  };
}

function playback(audioFor: (sentence: string) => Promise<Blob>): PreparedVoice {
  let current: { element: HTMLAudioElement; finish: (result: "done" | "cancelled") => void } | null = null;
  return {
    async speak(sentence) {
      const url = URL.createObjectURL(await audioFor(sentence));
      try {
        return await new Promise<"done" | "cancelled">((resolve, reject) => {
          const element = new Audio(url);
          current = { element, finish: resolve };
          element.onended = () => resolve("done");
          element.onerror = () => reject(new VoiceUnavailableError({ kind: "audio-unplayable" }));
          element
            .play()
            .catch((error: unknown) =>
              reject(
                new VoiceUnavailableError(
                  { kind: "audio-refused", code: error instanceof Error ? error.name : String(error) },
                  { cause: error },
                ),
              ),
            );
        });
      } finally {
        current = null;
        URL.revokeObjectURL(url);
      }
    },
    cancel() {
      current?.element.pause();
      current?.finish("cancelled");
    },
  };
}
