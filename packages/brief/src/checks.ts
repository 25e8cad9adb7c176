import {
  type BriefDraft,
  type CriticalFact,
  SPOKEN_PARAGRAPH_MAX_RATIO,
  SPOKEN_RATIO_MIN_ORIGINAL_CHARS,
} from "@ringback/protocol";

/** A critical fact the spoken paragraph does not cover, and how we know. */
export interface UncoveredFact {
  fact: string;
  /** `not_covered`: the model says so; `numbers_missing`: the model says covered but its numbers are absent. */
  reason: "not_covered" | "numbers_missing";
  /** The numbers of the fact that the spoken paragraph lacks (for `numbers_missing`). */
  missingNumbers: string[];
}

/** The outcome of the checks on one draft. */
export interface BriefCheck {
  /** The draft's facts with `covered` set to the checked value. */
  facts: CriticalFact[];
  uncoveredFacts: UncoveredFact[];
  /** Characters (code points) of the spoken paragraph and of the original report. */
  spokenChars: number;
  originalChars: number;
  /** spokenChars / originalChars (0 for an empty original). */
  spokenRatio: number;
  /** The most characters the spoken paragraph may have, or null when the original is too short for the rule. */
  maxSpokenChars: number | null;
  isTooLong: boolean;
  /** Every fact covered and the spoken paragraph within its length. */
  passed: boolean;
}

/** Characters as a listener meets them: code points, not UTF-16 units. */
export function characterCount(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

/** The most characters a spoken paragraph may have for this original, or null when the rule does not apply. */
export function maxSpokenChars(original: string): number | null {
  const originalChars = characterCount(original);
  return originalChars >= SPOKEN_RATIO_MIN_ORIGINAL_CHARS
    ? Math.floor(originalChars * SPOKEN_PARAGRAPH_MAX_RATIO)
    : null;
}

// A number with group or decimal separators ("1,234", "1.234", "1 234", "3,5") or a bare run of digits.
const NUMBER_PATTERN = /\d(?:[\d.,'\u00a0\u202f]*\d)?/g;

function stripLeadingZeros(digits: string): string {
  return digits.replace(/^0+(?=\d)/, "");
}

/**
 * The numbers of a text as digit strings, each written whole ("1234" for "1,234") and in its parts
 * ("1", "234"), so that locales that group or separate decimals differently still match.
 */
function numberForms(text: string): { whole: string; parts: string[] }[] {
  const normalized = text.normalize("NFKC");
  return Array.from(normalized.matchAll(NUMBER_PATTERN), ([token]) => ({
    whole: stripLeadingZeros(token.replace(/\D/g, "")),
    parts: (token.match(/\d+/g) ?? []).map(stripLeadingZeros),
  }));
}

/** The numbers of the fact (as digit strings) that the spoken text lacks. */
export function missingNumbers(fact: string, spoken: string): string[] {
  const spokenNumbers = new Set<string>();
  for (const { whole, parts } of numberForms(spoken)) {
    spokenNumbers.add(whole);
    for (const part of parts) spokenNumbers.add(part);
  }
  const missing: string[] = [];
  for (const { whole, parts } of numberForms(fact)) {
    const isPresent = spokenNumbers.has(whole) || parts.every((part) => spokenNumbers.has(part));
    if (!isPresent) missing.push(whole);
  }
  return missing;
}

/**
 * The checks of a draft against its original (spec, Limits): every critical fact covered, and the spoken
 * paragraph at most 60 % of the original when the original has 300 or more characters.
 *
 * Trust, but verify: a fact the model marks covered still counts as uncovered when one of its numbers is
 * missing from the spoken paragraph. Words are not compared, because the spoken paragraph paraphrases and
 * inflects them (in any language); numbers survive paraphrase, and they are what a listener must not miss.
 */
export function checkBrief(original: string, draft: BriefDraft): BriefCheck {
  const uncoveredFacts: UncoveredFact[] = [];
  const facts = draft.criticalFacts.map(({ fact, covered }) => {
    if (!covered) {
      uncoveredFacts.push({ fact, reason: "not_covered", missingNumbers: [] });
      return { fact, covered: false };
    }
    const missing = missingNumbers(fact, draft.spoken);
    if (missing.length > 0) {
      uncoveredFacts.push({ fact, reason: "numbers_missing", missingNumbers: missing });
      return { fact, covered: false };
    }
    return { fact, covered: true };
  });
  const spokenChars = characterCount(draft.spoken);
  const originalChars = characterCount(original);
  const limit = maxSpokenChars(original);
  const isTooLong = limit !== null && spokenChars > limit;
  return {
    facts,
    uncoveredFacts,
    spokenChars,
    originalChars,
    spokenRatio: originalChars === 0 ? 0 : spokenChars / originalChars,
    maxSpokenChars: limit,
    isTooLong,
    passed: uncoveredFacts.length === 0 && !isTooLong,
  };
}
