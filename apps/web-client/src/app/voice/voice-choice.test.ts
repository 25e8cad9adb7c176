import type { VoiceOption } from "@ringback/client";
import { DEFAULT_VOICE_SETTINGS } from "@ringback/client";
import { describe, expect, it } from "vitest";
import { OPENAI_VOICES, speechRequestBody } from "./speech-endpoint.js";
import { speedRangeOf } from "./speed-range.js";
import { firstFemaleVoice, voiceForLanguage, withChosenVoice } from "./voice-choice.js";
import { genderFromVoiceName } from "./voice-gender.js";

const voice = (id: string, language: string, gender?: "female" | "male"): VoiceOption => ({
  id,
  name: id,
  language,
  isDefault: false,
  ...(gender ? { gender } : {}),
});
const voices = [
  voice("daniel", "en-GB", "male"),
  voice("samantha", "en-US", "female"),
  voice("yunxi", "zh-CN", "male"),
  voice("tingting", "zh-CN", "female"),
  voice("anon-fr", "fr-FR"),
];

describe("the voice for the report language", () => {
  it("keeps the stored voice when it speaks the language", () => {
    const settings = { ...DEFAULT_VOICE_SETTINGS, voiceURI: "daniel" };
    expect(voiceForLanguage(settings, voices, "en-US")?.id).toBe("daniel");
  });

  it("replaces a stored voice of another language by that language's first female voice, and restores it", () => {
    const settings = { ...DEFAULT_VOICE_SETTINGS, voiceURI: "daniel" };
    expect(voiceForLanguage(settings, voices, "zh-CN")?.id).toBe("tingting");
    expect(voiceForLanguage(settings, voices, "en-GB")?.id).toBe("daniel");
  });

  it("prefers the voice the user chose for that language before", () => {
    let settings = withChosenVoice(DEFAULT_VOICE_SETTINGS, voices[2]!);
    settings = withChosenVoice(settings, voices[0]!);
    expect(settings.voiceURI).toBe("daniel");
    expect(voiceForLanguage(settings, voices, "zh-TW")?.id).toBe("yunxi");
  });

  it("takes a language's first voice when no voice of it says its gender", () => {
    expect(firstFemaleVoice(voices, "fr-CA")?.id).toBe("anon-fr");
    expect(voiceForLanguage(DEFAULT_VOICE_SETTINGS, [], "fr-FR")).toBeNull();
  });

  it("keeps a speech endpoint's voice in every language: those voices speak them all", () => {
    const settings = withChosenVoice(
      DEFAULT_VOICE_SETTINGS,
      OPENAI_VOICES.find((option) => option.id === "onyx")!,
    );
    expect(voiceForLanguage(settings, OPENAI_VOICES, "ja-JP")?.id).toBe("onyx");
    expect(firstFemaleVoice(OPENAI_VOICES, "ja-JP")?.id).toBe("coral");
  });

  it("reads a voice's gender from its well-known name", () => {
    expect(genderFromVoiceName("Google UK English Female")).toBe("female");
    expect(genderFromVoiceName("Google UK English Male")).toBe("male");
    expect(genderFromVoiceName("Microsoft Xiaoxiao Online (Natural) - Chinese")).toBe("female");
    expect(genderFromVoiceName("Tingting")).toBe("female");
    expect(genderFromVoiceName("eSpeak 12")).toBeUndefined();
  });
});

describe("speech speed", () => {
  const endpoint = { baseUrl: "http://127.0.0.1:1/v1", apiKey: "k", model: "tts-1", hasSpeed: true };

  it("offers 0.5x-2x, clamped again by the platform, or none for a platform without a speed parameter", () => {
    expect(speedRangeOf(DEFAULT_VOICE_SETTINGS)).toEqual({ min: 0.5, max: 2 });
    expect(speedRangeOf({ ...DEFAULT_VOICE_SETTINGS, platform: "speech-endpoint", endpoint })).toEqual({
      min: 0.5,
      max: 2,
    });
    expect(
      speedRangeOf({
        ...DEFAULT_VOICE_SETTINGS,
        platform: "speech-endpoint",
        endpoint: { ...endpoint, hasSpeed: false },
      }),
    ).toBeNull();
  });

  it("sends the speed clamped to 0.5x-2x, and no speed to a platform without the parameter", () => {
    expect(speechRequestBody(endpoint, "Hi.", "nova", 3)).toMatchObject({
      speed: 2,
      voice: "nova",
      input: "Hi.",
    });
    expect(speechRequestBody(endpoint, "Hi.", "nova", 0.1)).toMatchObject({ speed: 0.5 });
    expect(speechRequestBody({ ...endpoint, hasSpeed: false }, "Hi.", "nova", 2)).not.toHaveProperty("speed");
  });
});
