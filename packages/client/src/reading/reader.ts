import type { BriefScript } from "./brief-script.js";

/**
 * Where the in-call reading is: a track (the main part, or one card) and a sentence in it. Reading goes sentence
 * by sentence; pause, skip and jump to a card move the position. Pure: the speech player follows it.
 */
export interface ReaderState {
  /** "main" for the spoken (and supplementary, or original) part, or a card's index. */
  readonly track: "main" | number;
  readonly sentence: number;
  readonly status: "reading" | "paused" | "finished";
}

export type ReaderAction =
  | { readonly type: "sentence-done" }
  | { readonly type: "pause" }
  | { readonly type: "resume" }
  | { readonly type: "skip" }
  | { readonly type: "back" }
  | { readonly type: "jump-to-card"; readonly card: number }
  | { readonly type: "read-main-again" };

export const READER_START: ReaderState = { track: "main", sentence: 0, status: "reading" };

export function trackSentences(script: BriefScript, track: ReaderState["track"]): readonly string[] {
  if (track === "main") return script.main.flatMap((segment) => segment.sentences);
  return script.cards[track]?.sentences ?? [];
}

/** The sentence to read now, or null when paused or finished. */
export function currentSentence(script: BriefScript, state: ReaderState): string | null {
  if (state.status !== "reading") return null;
  return trackSentences(script, state.track)[state.sentence] ?? null;
}

export function reduceReader(script: BriefScript, state: ReaderState, action: ReaderAction): ReaderState {
  const length = trackSentences(script, state.track).length;
  const at = (sentence: number, status: ReaderState["status"] = state.status): ReaderState =>
    sentence >= length ? { ...state, sentence: length, status: "finished" } : { ...state, sentence, status };
  switch (action.type) {
    case "sentence-done":
      return state.status === "reading" ? at(state.sentence + 1) : state;
    case "pause":
      return state.status === "reading" ? { ...state, status: "paused" } : state;
    case "resume":
      return state.status === "paused" ? { ...state, status: "reading" } : state;
    case "skip":
      return state.status === "finished" ? state : at(state.sentence + 1);
    case "back":
      return { ...state, sentence: Math.max(0, Math.min(state.sentence, length) - 1), status: "reading" };
    case "jump-to-card":
      if (!script.cards[action.card]) return state;
      return { track: action.card, sentence: 0, status: "reading" };
    case "read-main-again":
      return READER_START;
  }
}
