/**
 * Some speech engines stop reading an utterance after about 15 seconds (Chromium's long-standing cut-off), so a
 * sentence longer than this is read in parts, split at commas, semicolons or spaces.
 */
export const SENTENCE_MAX_CHARS = 200;

const SENTENCE_END = /(?<=[.!?。！？…])\s+|(?<=[。！？])/u;
const SOFT_BREAK = /(?<=[,;:，；：、])\s*/u;

export interface SplitOptions {
  /** BCP 47 tag of the text, for the platform's sentence rules. */
  readonly language?: string;
  /** For tests: split without Intl.Segmenter, as on platforms that lack it. */
  readonly isSegmenterDisabled?: boolean;
}

/** Splits text into the sentences read aloud one by one: line breaks end a sentence too (lists have no full stops). */
export function splitSentences(text: string, options: SplitOptions = {}): string[] {
  const sentences: string[] = [];
  for (const line of text.split(/\r?\n/)) {
    for (const sentence of splitLine(line, options)) {
      sentences.push(...splitLong(sentence));
    }
  }
  return sentences;
}

function splitLine(line: string, options: SplitOptions): string[] {
  const trimmed = line.replace(/\s+/g, " ").trim();
  if (trimmed === "") return [];
  const Segmenter = options.isSegmenterDisabled ? undefined : globalThis.Intl?.Segmenter;
  const parts = Segmenter
    ? Array.from(
        new Segmenter(options.language, { granularity: "sentence" }).segment(trimmed),
        (part) => part.segment,
      )
    : trimmed.split(SENTENCE_END);
  return parts.map((part) => part.trim()).filter(isSpeakable);
}

/** A fragment of punctuation alone says nothing. */
function isSpeakable(part: string): boolean {
  return /[\p{L}\p{N}]/u.test(part);
}

function splitLong(sentence: string): string[] {
  if (sentence.length <= SENTENCE_MAX_CHARS) return [sentence];
  const parts: string[] = [];
  let current = "";
  for (const piece of sentence.split(SOFT_BREAK).flatMap(splitAtSpaces)) {
    if (current !== "" && current.length + piece.length + 1 > SENTENCE_MAX_CHARS) {
      parts.push(current);
      current = piece;
    } else {
      current = current === "" ? piece : `${current} ${piece}`;
    }
  }
  if (current !== "") parts.push(current);
  return parts.filter(isSpeakable);
}

function splitAtSpaces(piece: string): string[] {
  if (piece.length <= SENTENCE_MAX_CHARS) return [piece.trim()];
  const words = piece.split(/\s+/);
  if (words.length > 1) return words;
  // One unbroken run (a hash, a URL, or text with no spaces): cut it to size.
  const chunks: string[] = [];
  for (let start = 0; start < piece.length; start += SENTENCE_MAX_CHARS)
    chunks.push(piece.slice(start, start + SENTENCE_MAX_CHARS));
  return chunks;
}
