import { LanguageTag } from "@ringback/protocol";

/** The last resort when neither the environment nor the runtime names a language with a region. */
export const FALLBACK_LANGUAGE = "en-US";

/**
 * The computer's language as a BCP 47 language-region tag: the POSIX locale (`LC_ALL`, then `LC_MESSAGES`,
 * then `LANG`, first one set wins, e.g. `es_MX.UTF-8` -> `es-MX`), then the runtime's own locale when it
 * has a region, else `en-US`.
 */
export function systemLanguage(
  env: NodeJS.ProcessEnv = process.env,
  runtimeLocale: string = Intl.DateTimeFormat().resolvedOptions().locale,
): string {
  const posix = [env.LC_ALL, env.LC_MESSAGES, env.LANG].find((value) => value !== undefined && value !== "");
  return languageRegion(posixLocaleToTag(posix)) ?? languageRegion(runtimeLocale) ?? FALLBACK_LANGUAGE;
}

/** `es_MX.UTF-8@euro` -> `es-MX`; `C` and `POSIX` name no language. */
function posixLocaleToTag(locale: string | undefined): string | undefined {
  const name = locale?.split(/[.@]/)[0];
  if (!name || name === "C" || name === "POSIX") return undefined;
  return name.replaceAll("_", "-");
}

/** The tag without extensions (`en-US-u-hc-h12` -> `en-US`) when it is a valid language-region tag. */
function languageRegion(tag: string | undefined): string | undefined {
  if (!tag) return undefined;
  let baseName: string;
  try {
    baseName = new Intl.Locale(tag).baseName;
  } catch {
    return undefined;
  }
  const parsed = LanguageTag.safeParse(baseName);
  return parsed.success ? parsed.data : undefined;
}
