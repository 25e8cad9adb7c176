import { describe, expect, it } from "vitest";
import { pickVoice, type VoiceOption } from "./voice-platform.js";

const voices: VoiceOption[] = [
  { id: "en-GB-1", name: "Daniel", language: "en-GB", isDefault: false },
  { id: "en-US-1", name: "Samantha", language: "en_US", isDefault: true },
  { id: "zh-CN-1", name: "Tingting", language: "zh-CN", isDefault: false },
];

describe("voice choice", () => {
  it("uses the user's chosen voice when the device has it", () => {
    expect(pickVoice(voices, "zh-CN-1", "en-US")?.id).toBe("zh-CN-1");
  });

  it("otherwise takes a voice of the brief's language, exact region first", () => {
    expect(pickVoice(voices, "gone", "en-US")?.id).toBe("en-US-1");
    expect(pickVoice(voices, null, "en-AU")?.id).toBe("en-GB-1");
    expect(pickVoice(voices, null, "zh-TW")?.id).toBe("zh-CN-1");
  });

  it("falls back to the platform default, or none when no voice is listed", () => {
    expect(pickVoice(voices, null, "fr-FR")?.id).toBe("en-US-1");
    expect(pickVoice([], null, "fr-FR")).toBeNull();
  });
});
