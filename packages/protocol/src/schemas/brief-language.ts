import { z } from "zod";

/**
 * A BCP 47 language-region tag (`es-MX`, `zh-Hans-CN`, `en-419`), returned in canonical case.
 * A bare language (`es`) is refused: the brief language needs a region.
 */
export const LanguageTag = z.string().transform((value, context) => {
  let canonical: string | undefined;
  try {
    canonical = Intl.getCanonicalLocales(value.trim())[0];
  } catch {
    canonical = undefined;
  }
  const region = canonical ? new Intl.Locale(canonical).region : undefined;
  if (!canonical || !region) {
    context.addIssue({ code: "custom", message: "must be a BCP 47 language-region tag such as en-US" });
    return z.NEVER;
  }
  return canonical;
});

/**
 * A language tag in words, for a model's prompt: `es-MX` -> "Mexican Spanish", `fr-CA` -> "Canadian French",
 * `de-AT` -> "Austrian German", `pt-BR` -> "Brazilian Portuguese"; regions without a dialect name read
 * "Spanish (Chile)". An unknown or malformed tag comes back as written, so the model still sees it.
 */
export function languageName(tag: string, inLanguage = "en"): string {
  try {
    return (
      new Intl.DisplayNames([inLanguage], { type: "language", languageDisplay: "dialect" }).of(tag) ?? tag
    );
  } catch {
    return tag;
  }
}

export const BriefLanguageSource = z.enum(["app", "system"]);

/** `GET /brief/language` response. */
export const BriefLanguage = z.object({
  language: z.string(),
  source: BriefLanguageSource,
});
export type BriefLanguage = z.infer<typeof BriefLanguage>;

/** `PUT /brief/language` body. */
export const PutBriefLanguageRequest = z.object({ language: LanguageTag });
export type PutBriefLanguageRequest = z.infer<typeof PutBriefLanguageRequest>;
