/** The speech speed range the app offers; each voice platform may clamp it further to its own range. */
export const SPEECH_SPEED_MIN = 0.5;
export const SPEECH_SPEED_MAX = 2;

export interface VoiceSettings {
  /** The chosen voice of the platform; null for the platform's voice for the brief's language. */
  readonly voiceURI: string | null;
  /** 1 is normal speed. */
  readonly speed: number;
}

export const DEFAULT_VOICE_SETTINGS: VoiceSettings = { voiceURI: null, speed: 1 };

export function clampSpeed(speed: number, min = SPEECH_SPEED_MIN, max = SPEECH_SPEED_MAX): number {
  if (!Number.isFinite(speed)) return DEFAULT_VOICE_SETTINGS.speed;
  return Math.min(max, Math.max(min, speed));
}
