import { FALLBACK_REPORT_LANGUAGE, REPORT_LOCALES } from "./locales.js";

/** Older or macro-language codes the system may report for a language the list names otherwise. */
const LANGUAGE_ALIASES: Readonly<Record<string, string>> = { no: "nb", tl: "fil", iw: "he", in: "id" };

interface ParsedTag {
  readonly language: string;
  /** The script written or implied (zh-MO is written in Hant), for the most common region of that script. */
  readonly script: string | undefined;
  readonly region: string | undefined;
}

function parse(tag: string): ParsedTag | null {
  try {
    const locale = new Intl.Locale(tag.trim().replace(/_/g, "-"));
    return {
      language: LANGUAGE_ALIASES[locale.language] ?? locale.language,
      script: locale.maximize().script,
      region: locale.region,
    };
  } catch {
    return null;
  }
}

function listed(language: string, region: string | undefined): string | undefined {
  if (!region) return undefined;
  const wanted = `${language}-${region}`.toLowerCase();
  return REPORT_LOCALES.find((locale) => locale.toLowerCase() === wanted);
}

/**
 * The report language by default, following the system: the system's preferred language with its region (the
 * first preferred tag of that language whose region the list has); if none, the language's most common region
 * (`Intl.Locale#maximize` of the language and its script, so zh-Hant and zh-MO read as Taiwan); else en-US.
 */
export function defaultReportLanguage(preferredLanguages: readonly string[]): string {
  const first = preferredLanguages.map(parse).find((parsed) => parsed !== null);
  if (!first) return FALLBACK_REPORT_LANGUAGE;
  for (const tag of preferredLanguages) {
    const parsed = parse(tag);
    if (parsed?.language !== first.language) continue;
    const match = listed(parsed.language, parsed.region);
    if (match) return match;
  }
  try {
    const likely = new Intl.Locale(
      first.script ? `${first.language}-${first.script}` : first.language,
    ).maximize();
    return listed(first.language, likely.region) ?? FALLBACK_REPORT_LANGUAGE;
  } catch {
    return FALLBACK_REPORT_LANGUAGE;
  }
}
