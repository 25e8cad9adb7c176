import { createMemoryStore, DEFAULT_VOICE_SETTINGS, SPEECH_SPEED_MAX } from "@ringback/client";
import { describe, expect, it } from "vitest";
import { VoiceSettingsStore } from "./voice-settings-store.js";

describe("voice settings store", () => {
  it("clamps a stored speech speed to 0.5x-2x", async () => {
    const store = createMemoryStore();
    await store.set("voice", { voiceURI: "v1", speed: 9 });
    expect(await new VoiceSettingsStore(store).loadVoice()).toEqual({
      ...DEFAULT_VOICE_SETTINGS,
      voiceURI: "v1",
      speed: SPEECH_SPEED_MAX,
    });
  });
});
