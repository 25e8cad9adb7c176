import type { RoundUpItem, RoundUpKind } from "./round-up-calls.js";

/** The connecting words of a round-up's opening in one language. */
interface OpeningPhrases {
  readonly count: (count: number) => string;
  readonly item: Record<RoundUpKind, (project: string, headline: string | null) => string>;
  readonly separator: string;
}

const ENGLISH_COUNTS = ["", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten"];
const CHINESE_COUNTS = ["", "一", "两", "三", "四", "五", "六", "七", "八", "九", "十"];

const ENGLISH: OpeningPhrases = {
  count: (count) => `${ENGLISH_COUNTS[count] ?? count} ${count === 1 ? "agent" : "agents"}.`,
  item: {
    "needs-you": (project, headline) =>
      headline ? `${project} needs you: ${headline}.` : `${project} needs you.`,
    finished: (project, headline) =>
      headline ? `${project} finished: ${headline}.` : `${project} finished.`,
    failed: (project, headline) => (headline ? `${project} failed: ${headline}.` : `${project} failed.`),
  },
  separator: " ",
};

const CHINESE: OpeningPhrases = {
  count: (count) => `${CHINESE_COUNTS[count] ?? count}个智能体。`,
  item: {
    "needs-you": (project, headline) => (headline ? `${project}需要你：${headline}。` : `${project}需要你。`),
    finished: (project, headline) => (headline ? `${project}已完成：${headline}。` : `${project}已完成。`),
    failed: (project, headline) => (headline ? `${project}失败了：${headline}。` : `${project}失败了。`),
  },
  separator: "",
};

/**
 * A language Ringback has no words of its own for: the count as a number and each call's project and headline, the
 * brief's own words, with no connecting word of another language.
 */
const WORDLESS: OpeningPhrases = {
  count: (count) => `${count}.`,
  item: {
    "needs-you": (project, headline) => `${project}${headline ? `: ${headline}` : ""}.`,
    finished: (project, headline) => `${project}${headline ? `: ${headline}` : ""}.`,
    failed: (project, headline) => `${project}${headline ? `: ${headline}` : ""}.`,
  },
  separator: " ",
};

/** The languages whose connecting words the round-up has (the brief package's own: English and Chinese). */
function phrasesFor(language: string): OpeningPhrases {
  if (/^zh(?:-|$)/i.test(language)) return CHINESE;
  if (/^en(?:-|$)/i.test(language)) return ENGLISH;
  return WORDLESS;
}

/** The opening said before the calls of a round-up, and the language it is read in. */
export interface RoundUpOpening {
  readonly text: string;
  readonly language: string;
}

/**
 * The spoken opening of a round-up, built on the phone from each call's checked headline and its project, never by a
 * model: "Three agents. Payments needs you: it wants to run the migration. Docs finished: links fixed. Search
 * failed." In the brief language (the first call's); `items` in the order they will be read.
 */
export function roundUpOpening(items: readonly RoundUpItem[], fallbackLanguage = "en-US"): RoundUpOpening {
  const language = items[0]?.language ?? fallbackLanguage;
  const phrases = phrasesFor(language);
  const sentences = [
    phrases.count(items.length),
    ...items.map((item) => phrases.item[item.kind](item.project, item.headline)),
  ];
  return { text: sentences.join(phrases.separator), language };
}
