import type { InterfaceLanguage, Text, TextSets } from "@ringback/client/texts";

/** An area's texts in the interface language (English when the language has no set). */
export function texts<T extends Record<string, Text>>(sets: TextSets<T>, language: InterfaceLanguage): T {
  return sets[language] ?? sets.en;
}
