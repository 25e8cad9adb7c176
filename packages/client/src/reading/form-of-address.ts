import { FORM_OF_ADDRESS_PLACEHOLDER } from "@ringback/protocol";

/**
 * The generic title used until the user sets a form of address, per brief language (the language's first subtag).
 * Chosen to read naturally in a sentence such as "{{address}}, the build is done."
 */
const DEFAULT_FORM_OF_ADDRESS: Readonly<Record<string, string>> = {
  en: "boss",
  zh: "老板",
};
const FALLBACK_LANGUAGE = "en";

export function defaultFormOfAddress(language: string): string {
  const primary = language.split("-")[0]?.toLowerCase() ?? FALLBACK_LANGUAGE;
  return DEFAULT_FORM_OF_ADDRESS[primary] ?? DEFAULT_FORM_OF_ADDRESS[FALLBACK_LANGUAGE]!;
}

/**
 * Replaces the brief's form-of-address placeholder with the user's form of address (the generic title when none is
 * set): when a call arrives, when history is read, and in in-call answers.
 */
export function addressed(text: string, formOfAddress: string | null, language: string): string {
  const address = formOfAddress?.trim() || defaultFormOfAddress(language);
  return text.replaceAll(FORM_OF_ADDRESS_PLACEHOLDER, address);
}
