import type { InterfaceLanguage } from "../../app/i18n/interface-language.js";
import type { Text, TextSets } from "../../app/i18n/text-sets.js";

/** An area's texts in the interface language (English when the language has no set). */
export function texts<T extends Record<string, Text>>(sets: TextSets<T>, language: InterfaceLanguage): T {
  return sets[language] ?? sets.en;
}
