import { splitSentences } from "../reading/sentences.js";

/** A sentence ends at . ! ? … followed by a space or line end, at a CJK full stop, or at a line break. */
const SENTENCE_END = /[.!?…](?=\s)|[。！？]|\n/gu;

/**
 * Cuts a streaming answer into sentences as soon as each is complete, so the first sentence is read aloud while the
 * rest is still arriving.
 */
export class AnswerChunker {
  #pending = "";

  constructor(private readonly language: string) {}

  /** New complete sentences after this piece of the answer. */
  push(delta: string): string[] {
    this.#pending += delta;
    let end = -1;
    for (const match of this.#pending.matchAll(SENTENCE_END)) end = match.index + match[0].length;
    if (end <= 0) return [];
    const complete = this.#pending.slice(0, end);
    this.#pending = this.#pending.slice(end);
    return splitSentences(complete, { language: this.language });
  }

  /** The answer ended: whatever is left is the last sentence. */
  flush(): string[] {
    const rest = this.#pending;
    this.#pending = "";
    return splitSentences(rest, { language: this.language });
  }
}
