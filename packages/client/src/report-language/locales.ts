/**
 * The report languages the app offers: 90 language-region tags. The daemon writes briefs in the chosen one, and the
 * in-call answers and the voice follow it.
 */
export const REPORT_LOCALES = [
  "en-US",
  "en-GB",
  "en-AU",
  "en-CA",
  "en-IN",
  "en-IE",
  "en-NZ",
  "en-ZA",
  "en-SG",
  "en-PH",
  "zh-CN",
  "zh-TW",
  "zh-HK",
  "zh-SG",
  "es-ES",
  "es-MX",
  "es-AR",
  "es-CO",
  "es-CL",
  "es-PE",
  "es-US",
  "fr-FR",
  "fr-CA",
  "fr-BE",
  "fr-CH",
  "de-DE",
  "de-AT",
  "de-CH",
  "pt-BR",
  "pt-PT",
  "it-IT",
  "it-CH",
  "ja-JP",
  "ko-KR",
  "ru-RU",
  "uk-UA",
  "be-BY",
  "pl-PL",
  "cs-CZ",
  "sk-SK",
  "hu-HU",
  "ro-RO",
  "bg-BG",
  "hr-HR",
  "sr-RS",
  "sl-SI",
  "nl-NL",
  "nl-BE",
  "sv-SE",
  "da-DK",
  "nb-NO",
  "fi-FI",
  "is-IS",
  "el-GR",
  "tr-TR",
  "ar-SA",
  "ar-EG",
  "ar-AE",
  "ar-MA",
  "he-IL",
  "fa-IR",
  "ur-PK",
  "hi-IN",
  "bn-BD",
  "bn-IN",
  "ta-IN",
  "te-IN",
  "mr-IN",
  "gu-IN",
  "kn-IN",
  "ml-IN",
  "pa-IN",
  "th-TH",
  "vi-VN",
  "id-ID",
  "ms-MY",
  "fil-PH",
  "sw-KE",
  "am-ET",
  "zu-ZA",
  "af-ZA",
  "et-EE",
  "lv-LV",
  "lt-LT",
  "ca-ES",
  "eu-ES",
  "gl-ES",
  "ka-GE",
  "hy-AM",
  "kk-KZ",
] as const;

export type ReportLocale = (typeof REPORT_LOCALES)[number];

/** The last resort of the default. */
export const FALLBACK_REPORT_LANGUAGE: ReportLocale = "en-US";

export function isReportLocale(value: unknown): value is ReportLocale {
  return (REPORT_LOCALES as readonly unknown[]).includes(value);
}

/** A locale's name in the interface language ("Deutsch (Österreich)" is not needed: the interface is en or zh). */
export function localeName(tag: string, interfaceLanguage: string): string {
  try {
    return new Intl.DisplayNames([interfaceLanguage], { type: "language" }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}
