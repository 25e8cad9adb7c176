/**
 * A language tag in words, for the prompt: `es-MX` -> "Mexican Spanish", `fr-CA` -> "Canadian French",
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
