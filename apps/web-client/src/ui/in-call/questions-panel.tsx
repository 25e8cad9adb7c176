import type { CallRecord, QuestionSession } from "@ringback/client";
import { CORE_TEXTS, IN_CALL_TEXTS, PROBLEM_TEXTS } from "@ringback/client/texts";
import { useState } from "preact/hooks";
import type { AppController, AppView } from "../../app/controller/app-controller.js";
import { hearingProblemText } from "../../app/voice/voice-problem.js";
import { useObservable } from "../shared/use-observable.js";
import { useSpokenWords } from "../shared/use-spoken-words.js";
import { texts } from "../shared/use-texts.js";
import { Conversation } from "./conversation.js";
import { DecisionList } from "./decision-list.js";
import { QuestionChannelMissing } from "./question-channel-missing.js";

interface Props {
  readonly controller: AppController;
  readonly view: AppView;
  readonly record: CallRecord;
  readonly session: QuestionSession;
  /** The brief's language: spoken questions are recognised in it. */
  readonly language: string;
}

/** In call: ask about the report (typed, or spoken where the browser recognises speech); the answer streams in. */
export function QuestionsPanel({ controller, view, record, session, language }: Props) {
  const t = texts(CORE_TEXTS, view.interfaceLanguage);
  const it = texts(IN_CALL_TEXTS, view.interfaceLanguage);
  const state = useObservable(session);
  const [question, setQuestion] = useState("");

  const ask = (text: string) => {
    if (text.trim() === "") return;
    setQuestion("");
    session.ask(text).catch(() => undefined);
  };

  // What is heard is asked at once: the question goes to the device's own model, never to the agent.
  const spoken = useSpokenWords();

  // No model to ask and nothing asked yet: one line that says why and where to set one, not a form that cannot work.
  if (view.questionChannel === null && record.conversation.length === 0) {
    return (
      <section class="questions-missing" data-testid="questions-panel" data-state="no-model">
        <QuestionChannelMissing controller={controller} view={view} />
        <DecisionList record={record} t={t} />
      </section>
    );
  }

  return (
    <section class="ask" data-testid="questions-panel">
      <h2>{t.askTitle}</h2>
      {view.questionChannel === null && <QuestionChannelMissing controller={controller} view={view} />}

      <Conversation record={record} session={state} language={view.interfaceLanguage} />
      {spoken.notice && (
        <p class="notice">
          {spoken.notice.kind === "failed"
            ? it.speechFailed(
                hearingProblemText(spoken.notice.code, texts(PROBLEM_TEXTS, view.interfaceLanguage)),
              )
            : t.speechNotRecognised}
        </p>
      )}

      <form
        class="ask-form"
        onSubmit={(event) => {
          event.preventDefault();
          ask(question);
        }}
      >
        <input
          data-testid="question-input"
          aria-label={it.questionLabel}
          placeholder={t.askPlaceholder}
          value={question}
          onInput={(event) => setQuestion(event.currentTarget.value)}
        />
        <button type="submit" data-testid="ask-button" disabled={question.trim() === ""}>
          {t.ask}
        </button>
        {spoken.isAvailable && (
          <button
            type="button"
            data-testid="speak-button"
            disabled={spoken.isListening}
            onClick={() => spoken.listen(language, ask).catch(() => undefined)}
          >
            {spoken.isListening ? t.listening : t.speak}
          </button>
        )}
        {state.status === "answering" && (
          <button type="button" data-testid="stop-answer" onClick={() => session.stop()}>
            {t.stopAnswer}
          </button>
        )}
      </form>

      <DecisionList record={record} t={t} />
    </section>
  );
}
