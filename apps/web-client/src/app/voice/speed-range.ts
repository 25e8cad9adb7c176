import { clampSpeed, SPEECH_SPEED_MAX, SPEECH_SPEED_MIN, type VoiceSettings } from "@ringback/client";
import { SYNTHESIS_RATE_RANGE } from "./browser-speech.js";
import { SPEECH_ENDPOINT_SPEED_RANGE } from "./speech-endpoint.js";

/**
 * The speeds the chosen platform can read at: the app's 0.5x-2x clamped again by the platform's own range. Null when
 * the platform takes no speed parameter: the page says so, and speech is read at the platform's normal speed.
 */
export function speedRangeOf(settings: VoiceSettings): { min: number; max: number } | null {
  const platform =
    settings.platform === "speech-endpoint"
      ? settings.endpoint?.hasSpeed === false
        ? null
        : SPEECH_ENDPOINT_SPEED_RANGE
      : SYNTHESIS_RATE_RANGE;
  if (!platform) return null;
  return {
    min: clampSpeed(SPEECH_SPEED_MIN, platform.min, platform.max),
    max: clampSpeed(SPEECH_SPEED_MAX, platform.min, platform.max),
  };
}
