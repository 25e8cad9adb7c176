import { type BriefLanguage, LanguageTag } from "@ringback/protocol";
import type { RawConfig } from "../files/config-file.js";

/** `brief.language` when the app set one (`source: "app"`), else the computer's language (`"system"`). */
export function currentBriefLanguage(raw: Readonly<RawConfig>, systemLanguage: string): BriefLanguage {
  const brief = raw.brief as { language?: unknown } | undefined;
  const saved = LanguageTag.safeParse(brief?.language);
  return saved.success
    ? { language: saved.data, source: "app" }
    : { language: systemLanguage, source: "system" };
}

/** The config with `brief.language` set; other keys of `brief` are kept. */
export function withBriefLanguage(raw: RawConfig, language: string): RawConfig {
  const brief = typeof raw.brief === "object" && raw.brief !== null ? raw.brief : {};
  return { ...raw, brief: { ...brief, language } };
}
