import type { CallRecord } from "@ringback/client";
import { isNeedsYou, ringsAsNeedsYou, trackSentences } from "@ringback/client";
import { CORE_TEXTS, IN_CALL_TEXTS, PROBLEM_TEXTS } from "@ringback/client/texts";
import type { AppController, AppView } from "../../app/controller/app-controller.js";
import { voiceProblemText } from "../../app/voice/voice-problem.js";
import { ReplyBox } from "../calls/reply-box.js";
import { texts } from "../shared/use-texts.js";
import { DecisionBox } from "./decision-box.js";
import { QuestionsPanel } from "./questions-panel.js";
import { useInCallReader } from "./use-in-call-reader.js";
import { useQuestionSession } from "./use-question-session.js";

interface Props {
  readonly controller: AppController;
  readonly view: AppView;
  readonly record: CallRecord;
}

/**
 * In call: the brief read sentence by sentence, with pause, skip, jump to a card, a reply to the agent (typed or
 * spoken), the questions and the original. Without a brief the agent's report is what is read, shown once: the
 * heading says there is no brief instead of repeating its first line, and the original stays folded. A "needs you"
 * call shows the exact request with Allow once and Deny first (the ask in words is what is read), and no reply: the
 * agent waits for a decision, not for words. A tracker agent's question is "needs you" too, but it waits for words:
 * it keeps its card and the reply box, and the reply is posted as a comment on the issue.
 */
export function InCallScreen({ controller, view, record }: Props) {
  const t = texts(CORE_TEXTS, view.interfaceLanguage);
  const it = texts(IN_CALL_TEXTS, view.interfaceLanguage);
  const { reader, reading } = useInCallReader(controller, record);
  const session = useQuestionSession(controller, record, reader, reading);
  const script = controller.reading.script(record);
  const state = reading?.state;
  const sentences = state ? trackSentences(script, state.track) : [];
  const noBriefReason = record.payload.brief.meta.error;
  const isAsk = isNeedsYou(record);
  const isNeedsYouCall = ringsAsNeedsYou(record);
  const hangUp = () => {
    session.stop();
    controller.calls.hangUp(record.eventId);
  };
  return (
    <main
      class={isNeedsYouCall ? "screen in-call needs-you" : "screen in-call"}
      data-testid="in-call-screen"
      data-event-id={record.eventId}
      data-kind={isNeedsYouCall ? "needs-you" : "finished"}
    >
      <header class="call-header">
        <p class="caller">{controller.callerName(record)}</p>
        {script.isBriefFailed ? (
          <>
            <h1>{it.agentReport}</h1>
            <p class="hint" data-testid="no-brief">
              {noBriefReason ? it.noBriefBecause(noBriefReason) : it.noBrief}
            </p>
          </>
        ) : (
          <h1>{script.title}</h1>
        )}
      </header>

      {isAsk && (
        <DecisionBox
          controller={controller}
          record={record}
          language={view.interfaceLanguage}
          speechLanguage={script.language}
        />
      )}

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
          <p class="notice">
            {voiceProblemText(reading.voiceError, texts(PROBLEM_TEXTS, view.interfaceLanguage))}
          </p>
        )}
      </section>

      <div class="reader-buttons">
        <button type="button" data-testid="back-button" onClick={() => reader?.dispatch({ type: "back" })}>
          {t.back}
        </button>
        {state?.status === "reading" ? (
          <button
            type="button"
            data-testid="pause-button"
            onClick={() => reader?.dispatch({ type: "pause" })}
          >
            {t.pause}
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
            {state?.status === "finished" ? t.readAgain : t.resume}
          </button>
        )}
        <button type="button" data-testid="skip-button" onClick={() => reader?.dispatch({ type: "skip" })}>
          {t.skip}
        </button>
      </div>

      {!isAsk && script.cards.length > 0 && (
        <section class="cards">
          <h2>{t.cards}</h2>
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
          <h2>{t.openQuestions}</h2>
          <ul>
            {script.openQuestions.map((question) => (
              <li key={question}>{question}</li>
            ))}
          </ul>
        </section>
      )}

      {!isAsk && (
        <section class="in-call-reply-section" data-testid="in-call-reply">
          <ReplyBox
            controller={controller}
            record={record}
            language={view.interfaceLanguage}
            inCall={{ speechLanguage: script.language }}
          />
        </section>
      )}

      <QuestionsPanel
        controller={controller}
        view={view}
        record={record}
        session={session}
        language={script.language}
      />

      <details class="original">
        <summary>{t.originalReport}</summary>
        <pre data-testid="original-report">{script.originalText}</pre>
      </details>

      <button type="button" class="hang-up" data-testid="hang-up-button" onClick={hangUp}>
        {t.hangUp}
      </button>
    </main>
  );
}
