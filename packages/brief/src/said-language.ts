/** The tag of words said in English when the brief language has no sentences of Ringback's own. */
const ENGLISH = "en-US";

/**
 * The sentences written without a model (needs-you asks, tracker questions) for a brief language, and the language
 * they are in: Chinese for any `zh` tag, English for every other (the tag then says English, so a device reads the
 * words with an English voice rather than the brief language's).
 */
export function sentencesFor<T>(
  language: string | undefined,
  sets: { en: T; zh: T },
): { sentences: T; language: string } {
  if (language && /^zh(?:-|$)/i.test(language)) return { sentences: sets.zh, language };
  return { sentences: sets.en, language: ENGLISH };
}
