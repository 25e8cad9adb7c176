/** The speech speed range the app offers; each voice platform may clamp it further to its own range. */
export const SPEECH_SPEED_MIN = 0.5;
export const SPEECH_SPEED_MAX = 2;

/** Where speech comes from: the browser's own synthesis, or an OpenAI-compatible `/audio/speech` endpoint. */
export type VoicePlatformId = "browser" | "speech-endpoint";

/**
 * An OpenAI-compatible speech endpoint, called from the device straight to the platform (the relay never sees the
 * text). `hasSpeed` false: the platform takes no speed parameter, and the page says so.
 */
export interface SpeechEndpoint {
  readonly baseUrl: string;
  readonly apiKey: string;
  readonly model: string;
  readonly hasSpeed: boolean;
}

export interface VoiceSettings {
  readonly platform: VoicePlatformId;
  /** The stored voice: the user's last choice; null for the platform's voice for the brief's language. */
  readonly voiceURI: string | null;
  /** 1 is normal speed. */
  readonly speed: number;
  /**
   * The user's choice per language (primary subtag): when the report language changes, a stored voice of another
   * language gives way to this language's choice (or its first female voice) and comes back with its language.
   */
  readonly voicesByLanguage: Readonly<Record<string, string>>;
  readonly endpoint: SpeechEndpoint | null;
  /** During a round-up, listen for "next", "skip", "answer" and "repeat" (where the platform recognises speech). */
  readonly roundUpVoiceCommands?: boolean;
}

export const DEFAULT_VOICE_SETTINGS: VoiceSettings = {
  platform: "browser",
  voiceURI: null,
  speed: 1,
  voicesByLanguage: {},
  endpoint: null,
  roundUpVoiceCommands: false,
};

export function clampSpeed(speed: number, min = SPEECH_SPEED_MIN, max = SPEECH_SPEED_MAX): number {
  if (!Number.isFinite(speed)) return DEFAULT_VOICE_SETTINGS.speed;
  return Math.min(max, Math.max(min, speed));
}
