/** The two interface languages, and the setting that may follow the system instead. */
export const INTERFACE_LANGUAGES = ["en", "zh"] as const;
export type InterfaceLanguage = (typeof INTERFACE_LANGUAGES)[number];
export const INTERFACE_LANGUAGE_CHOICES = ["system", ...INTERFACE_LANGUAGES] as const;
export type InterfaceLanguageChoice = (typeof INTERFACE_LANGUAGE_CHOICES)[number];

export function isInterfaceLanguageChoice(value: unknown): value is InterfaceLanguageChoice {
  return (INTERFACE_LANGUAGE_CHOICES as readonly unknown[]).includes(value);
}

/**
 * "Follow the system": Chinese when the system's preferred language is Chinese, otherwise English. It changes only
 * the interface; brief, voice and answer languages are the report language's.
 */
export function resolveInterfaceLanguage(
  choice: InterfaceLanguageChoice,
  preferredLanguages: readonly string[],
): InterfaceLanguage {
  if (choice !== "system") return choice;
  const first = preferredLanguages[0]?.trim().toLowerCase() ?? "";
  return first === "zh" || first.startsWith("zh-") || first.startsWith("zh_") ? "zh" : "en";
}
