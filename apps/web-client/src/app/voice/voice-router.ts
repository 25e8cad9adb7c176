import type { VoicePlatform, VoicePlatformId } from "@ringback/client";

/** One voice platform for the app: each call goes to the platform the settings choose. */
export function routedVoicePlatform(
  platforms: Readonly<Record<VoicePlatformId, VoicePlatform>>,
): VoicePlatform {
  return {
    id: "routed",
    listVoices: (settings) => platforms[settings.platform].listVoices(settings),
    prepare: (sentences, language, settings) =>
      platforms[settings.platform].prepare(sentences, language, settings),
  };
}
