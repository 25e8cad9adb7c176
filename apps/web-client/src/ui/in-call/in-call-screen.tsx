import type { CallRecord } from "../../app/calls/call-record.js";
import { type AppController, callerName } from "../../app/controller/app-controller.js";
import { trackSentences } from "../../app/voice/reader.js";
import { useInCallReader } from "./use-in-call-reader.js";

interface Props {
  readonly controller: AppController;
  readonly record: CallRecord;
}

/** In call: the brief read sentence by sentence, with pause, skip, jump to a card, the questions and the original. */
export function InCallScreen({ controller, record }: Props) {
  const { reader, reading } = useInCallReader(controller, record);
  const script = controller.script(record);
  const state = reading?.state;
  const sentences = state ? trackSentences(script, state.track) : [];
  return (
    <main class="screen in-call" data-testid="in-call-screen" data-event-id={record.eventId}>
      <header class="call-header">
        <p class="caller">{callerName(record)}</p>
        <h1>{script.title}</h1>
      </header>

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
        {reading?.voiceError && <p class="notice">{reading.voiceError}</p>}
      </section>

      <div class="reader-buttons">
        <button type="button" onClick={() => reader?.dispatch({ type: "back" })}>
          Back
        </button>
        {state?.status === "reading" ? (
          <button
            type="button"
            data-testid="pause-button"
            onClick={() => reader?.dispatch({ type: "pause" })}
          >
            Pause
          </button>
        ) : (
          <button
            type="button"
            data-testid="resume-button"
            onClick={() =>
              reader?.dispatch(
                state?.status === "finished" ? { type: "read-main-again" } : { type: "resume" },
              )
            }
          >
            {state?.status === "finished" ? "Read again" : "Resume"}
          </button>
        )}
        <button type="button" data-testid="skip-button" onClick={() => reader?.dispatch({ type: "skip" })}>
          Skip
        </button>
      </div>

      {script.cards.length > 0 && (
        <section class="cards">
          <h2>Cards</h2>
          {script.cardTexts.map((card, index) => (
            <article class="brief-card" key={card.title}>
              <button
                type="button"
                class="link"
                onClick={() => reader?.dispatch({ type: "jump-to-card", card: index })}
              >
                {card.title}
              </button>
              <p>{card.body}</p>
            </article>
          ))}
        </section>
      )}

      {script.openQuestions.length > 0 && (
        <section class="questions">
          <h2>Open questions</h2>
          <ul>
            {script.openQuestions.map((question) => (
              <li key={question}>{question}</li>
            ))}
          </ul>
        </section>
      )}

      <details class="original" open={script.isBriefFailed}>
        <summary>Original report</summary>
        <pre data-testid="original-report">{script.originalText}</pre>
      </details>

      <button
        type="button"
        class="hang-up"
        data-testid="hang-up-button"
        onClick={() => controller.hangUp(record.eventId)}
      >
        Hang up
      </button>
    </main>
  );
}
