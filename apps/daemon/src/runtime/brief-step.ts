import { generateBrief } from "@ringback/brief";
import type { GenerateBrief } from "@ringback/outbox";
import { currentBriefLanguage } from "./brief-language.js";
import type { ConfigFile } from "./config-file.js";
import { configuredChannel } from "./llm-settings.js";

/**
 * The outbox's brief step: `@ringback/brief` with the channel and language current when the brief starts
 * (no channel: the spec's failed brief with no model call).
 */
export function createBriefStep(config: ConfigFile, systemLanguage: string): GenerateBrief {
  return (report, signal) =>
    generateBrief({
      report,
      channel: configuredChannel(config.raw),
      language: currentBriefLanguage(config.raw, systemLanguage).language,
      signal,
    });
}
