import type { BriefScript } from "../reading/brief-script.js";
import { type ReaderState, trackSentences } from "../reading/reader.js";

/** How far the user got in the call: what the model needs to know to answer "what was that last part?". */
export interface ListeningProgress {
  /** Sentences of the main part (spoken and supplementary paragraphs, or the original) heard to the end. */
  readonly mainHeard: number;
  /** Indexes of the cards the user opened. */
  readonly cardsOpened: readonly number[];
  /** Where the reading is now. */
  readonly at: ReaderState;
}

export function startProgress(at: ReaderState): ListeningProgress {
  return { mainHeard: 0, cardsOpened: [], at };
}

/** Follows the reader: the furthest main sentence reached, and every card jumped to. */
export function followReader(progress: ListeningProgress, at: ReaderState): ListeningProgress {
  if (at === progress.at) return progress;
  // The reader's position is the sentence being read: every sentence before it has been heard.
  const mainHeard = at.track === "main" ? Math.max(progress.mainHeard, at.sentence) : progress.mainHeard;
  const cardsOpened =
    at.track !== "main" && !progress.cardsOpened.includes(at.track)
      ? [...progress.cardsOpened, at.track]
      : progress.cardsOpened;
  return { mainHeard, cardsOpened, at };
}

/** The progress in words, for the prompt. */
export function describeProgress(script: BriefScript, progress: ListeningProgress): string {
  const main = trackSentences(script, "main");
  const heard = Math.min(progress.mainHeard, main.length);
  const lines = [
    heard >= main.length
      ? `The user has heard the whole spoken brief (${main.length} sentences).`
      : `The user has heard ${heard} of the ${main.length} sentences of the spoken brief${
          heard > 0 ? `, up to: "${main[heard - 1]}"` : ""
        }.`,
  ];
  if (progress.cardsOpened.length > 0) {
    lines.push(
      `Cards the user opened: ${progress.cardsOpened.map((card) => `"${script.cardTexts[card]?.title ?? card}"`).join(", ")}.`,
    );
  }
  const { at } = progress;
  if (at.track !== "main") {
    const sentences = trackSentences(script, at.track);
    lines.push(
      `Now at card "${script.cardTexts[at.track]?.title ?? at.track}", sentence ${Math.min(at.sentence + 1, sentences.length)} of ${sentences.length}.`,
    );
  } else if (at.sentence < main.length) {
    lines.push(
      `${at.status === "paused" ? "Paused at" : "Now reading"} sentence ${at.sentence + 1}: "${main[at.sentence]}"`,
    );
  }
  return lines.join("\n");
}
