import {
  clampSpeed,
  DEFAULT_VOICE_SETTINGS,
  type KeyValueStore,
  VOICE_SETTINGS_KEY,
  type VoiceSettings,
} from "@ringback/client";
import { z } from "zod";

/** Settings stored by the first versions hold only `voiceURI` and `speed`; the rest defaults. */
const StoredVoiceSettings = z.object({
  platform: z.enum(["browser", "speech-endpoint"]).catch("browser").default("browser"),
  voiceURI: z.string().nullable(),
  speed: z.number(),
  voicesByLanguage: z.record(z.string(), z.string()).catch({}).default({}),
  endpoint: z
    .object({ baseUrl: z.string(), apiKey: z.string(), model: z.string(), hasSpeed: z.boolean() })
    .nullable()
    .catch(null)
    .default(null),
  roundUpVoiceCommands: z.boolean().catch(false).default(false),
});

/** The browser voice's settings, kept beside the device's local settings (the voice is this app's, not the client's). */
export class VoiceSettingsStore {
  constructor(private readonly store: KeyValueStore) {}

  async loadVoice(): Promise<VoiceSettings> {
    const stored = StoredVoiceSettings.safeParse(await this.store.get(VOICE_SETTINGS_KEY));
    if (!stored.success) return DEFAULT_VOICE_SETTINGS;
    return { ...stored.data, speed: clampSpeed(stored.data.speed) };
  }

  async saveVoice(settings: VoiceSettings): Promise<void> {
    await this.store.set(VOICE_SETTINGS_KEY, { ...settings, speed: clampSpeed(settings.speed) });
  }
}
