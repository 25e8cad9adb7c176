import type { InterfaceLanguage } from "./interface-language.js";

/** A text: a plain string, or a function of the values it names (a count, a name). */
export type Text = string | ((...values: never[]) => string);

/** One area's texts in both interface languages; the Chinese set must have exactly the English set's keys. */
export type TextSets<T extends Record<string, Text>> = Readonly<Record<InterfaceLanguage, T>>;

/** Declares an area's texts; the type makes the Chinese set match the English one key for key. */
export function defineTexts<T extends Record<string, Text>>(sets: { en: T; zh: NoInfer<T> }): TextSets<T> {
  return sets;
}
