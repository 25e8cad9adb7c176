import { Brief, type BriefCard, generatedBrief } from "@ringback/protocol";

/** A call said in words the computer wrote itself: its title, the paragraph read aloud, and one card. */
export interface CallInWords {
  title: string;
  spoken: string;
  card: BriefCard;
}

/**
 * The brief of a call made without a model (a permission ask, a tracker agent's question): the words as they are,
 * whole, marked generated with no model call, so the devices read them like any brief.
 */
export function briefInWords(words: CallInWords, language: string, generatedAt: Date): Brief {
  return Brief.parse(
    generatedBrief(
      { title: words.title, spoken: words.spoken, cards: [words.card] },
      { llmCalls: 0, model: null, language, generatedAt: generatedAt.toISOString() },
    ),
  );
}
