import type { BriefScript, PreparedVoice } from "@ringback/client";
import {
  currentSentence,
  READER_START,
  type ReaderAction,
  type ReaderState,
  reduceReader,
} from "@ringback/client";
import { type VoiceProblem, voiceProblemOf } from "./voice-problem.js";

export interface InCallReading {
  readonly state: ReaderState;
  /** The sentence being read, for the screen to highlight. */
  readonly sentence: string | null;
  /** Set when the voice failed or there is none; reading is paused and the text stays on screen. */
  readonly voiceError: VoiceProblem | null;
}

/**
 * Reads a call aloud sentence by sentence with a prepared voice, following the reader's position: pause, skip,
 * back and jump to a card cancel the sentence being read and go on from the new position.
 */
export class InCallReader {
  #state: ReaderState = READER_START;
  #voiceError: VoiceProblem | null = null;
  #turn = 0;
  #isStopped = false;
  readonly #listeners = new Set<(reading: InCallReading) => void>();

  constructor(
    readonly script: BriefScript,
    private readonly voice: PreparedVoice | null,
  ) {
    if (!voice) {
      this.#voiceError = { kind: "no-voice" };
      this.#state = { ...READER_START, status: "paused" };
    }
  }

  get reading(): InCallReading {
    return {
      state: this.#state,
      sentence: currentSentence(this.script, this.#state),
      voiceError: this.#voiceError,
    };
  }

  subscribe(listener: (reading: InCallReading) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  start(): void {
    this.#speakCurrent();
  }

  dispatch(action: ReaderAction): void {
    if (this.#isStopped) return;
    const next = reduceReader(this.script, this.#state, action);
    if (next === this.#state) return;
    const isSamePlace = next.track === this.#state.track && next.sentence === this.#state.sentence;
    this.#state = next;
    if (action.type === "resume" || !isSamePlace || next.status !== "reading") {
      this.#turn += 1;
      this.voice?.cancel();
      if (action.type === "resume" || !isSamePlace) this.#voiceError = this.voice ? null : this.#voiceError;
    }
    this.#emit();
    if (this.voice && next.status === "reading") this.#speakCurrent();
  }

  /** Hang-up: stops reading for good. */
  stop(): void {
    this.#isStopped = true;
    this.#turn += 1;
    this.voice?.cancel();
    this.#listeners.clear();
  }

  #speakCurrent(): void {
    const sentence = currentSentence(this.script, this.#state);
    if (this.#isStopped || !this.voice || sentence === null) return;
    this.#turn += 1;
    const turn = this.#turn;
    this.voice.speak(sentence).then(
      (result) => {
        if (turn !== this.#turn || this.#isStopped || result !== "done") return;
        this.#state = reduceReader(this.script, this.#state, { type: "sentence-done" });
        this.#emit();
        this.#speakCurrent();
      },
      (error: unknown) => {
        if (turn !== this.#turn || this.#isStopped) return;
        this.#voiceError = voiceProblemOf(error);
        this.#state = { ...this.#state, status: "paused" };
        this.#emit();
      },
    );
  }

  #emit(): void {
    const reading = this.reading;
    for (const listener of this.#listeners) listener(reading);
  }
}
