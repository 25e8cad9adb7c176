import { type BriefScript, trackSentences } from "@ringback/client";
import { type InterfaceLanguage, PROBLEM_TEXTS } from "@ringback/client/texts";
import type { InCallReading } from "../../app/voice/in-call-reader.js";
import { voiceProblemText } from "../../app/voice/voice-problem.js";
import { texts } from "../shared/use-texts.js";

interface Props {
  readonly script: BriefScript;
  /** Null until the voice is ready. */
  readonly reading: InCallReading | null;
  readonly language: InterfaceLanguage;
}

/** What is being read: the track's sentences with the current one marked, the card's title, a voice problem. */
export function ReadingSection({ script, reading, language }: Props) {
  const state = reading?.state;
  const sentences = state ? trackSentences(script, state.track) : [];
  return (
    <section class="reading" aria-live="polite">
      {state?.track !== "main" && state && <h2>{script.cards[state.track as number]?.title}</h2>}
      {sentences.map((sentence, index) => (
        <span
          key={index}
          class={index === state?.sentence && state.status !== "finished" ? "sentence current" : "sentence"}
        >
          {sentence}{" "}
        </span>
      ))}
      {reading?.voiceError && (
        <p class="notice">{voiceProblemText(reading.voiceError, texts(PROBLEM_TEXTS, language))}</p>
      )}
    </section>
  );
}
