import type { CriticalFact, SupplementaryParagraph } from "@ringback/protocol";

// Sentence-final punctuation of the scripts a brief may be written in.
const SENTENCE_END = /[.!?。！？…।؟]$/u;

function asSentence(fact: string): string {
  const trimmed = fact.trim();
  return SENTENCE_END.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** The paragraph read aloud after the spoken part for facts it still lacks, or null when none. */
export function supplementaryParagraph(
  uncoveredFacts: readonly CriticalFact[],
  heading: string,
): SupplementaryParagraph | null {
  if (uncoveredFacts.length === 0) return null;
  return { heading: heading.trim(), text: uncoveredFacts.map((fact) => asSentence(fact.fact)).join(" ") };
}
