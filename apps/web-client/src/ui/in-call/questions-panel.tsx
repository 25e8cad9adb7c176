import type { CallRecord, QuestionSession } from "@ringback/client";
import { CORE_TEXTS, IN_CALL_TEXTS } from "@ringback/client/texts";
import { useMemo, useState } from "preact/hooks";
import type { AppController, AppView } from "../../app/controller/app-controller.js";
import { createSpeechInput, type RecognitionScope, SpeechInputError } from "../../app/voice/speech-input.js";
import { QuestionModelSettings } from "../settings/question-model-settings.js";
import { useObservable } from "../shared/use-observable.js";
import { texts } from "../shared/use-texts.js";
import { Conversation } from "./conversation.js";
import { DecisionList } from "./decision-list.js";

interface Props {
  readonly controller: AppController;
  readonly view: AppView;
  readonly record: CallRecord;
  readonly session: QuestionSession;
  /** The brief's language: spoken questions are recognised in it. */
  readonly language: string;
}

/** What listening last came to, worded when shown so that it follows the interface language. */
type SpeechNotice = { readonly kind: "not-recognised" } | { readonly kind: "failed"; readonly code: string };

/** In call: ask about the report (typed, or spoken where the browser recognises speech); the answer streams in. */
export function QuestionsPanel({ controller, view, record, session, language }: Props) {
  const t = texts(CORE_TEXTS, view.interfaceLanguage);
  const it = texts(IN_CALL_TEXTS, view.interfaceLanguage);
  const state = useObservable(session);
  const speech = useMemo(() => createSpeechInput(globalThis as RecognitionScope), []);
  const [question, setQuestion] = useState("");
  const [isListening, setListening] = useState(false);
  const [speechNotice, setSpeechNotice] = useState<SpeechNotice | null>(null);
  const [isSettingsOpen, setSettingsOpen] = useState(false);
  const hasNoChannel = view.questionChannel === null;

  const ask = (text: string) => {
    if (text.trim() === "") return;
    setQuestion("");
    session.ask(text).catch(() => undefined);
  };

  const listen = async () => {
    if (!speech) return;
    setSpeechNotice(null);
    setListening(true);
    try {
      const heard = await speech.listen(language);
      if (heard === "") setSpeechNotice({ kind: "not-recognised" });
      else ask(heard);
    } catch (caught) {
      setSpeechNotice({
        kind: "failed",
        code: caught instanceof SpeechInputError ? caught.problem : String(caught),
      });
    } finally {
      setListening(false);
    }
  };

  return (
    <section class="ask" data-testid="questions-panel">
      <h2>{t.askTitle}</h2>
      {hasNoChannel && (
        <p class="notice" data-testid="no-question-channel">
          {t.noQuestionChannel}{" "}
          <button
            type="button"
            class="link"
            data-testid="open-model-settings"
            onClick={() => setSettingsOpen(!isSettingsOpen)}
          >
            {isSettingsOpen ? it.closeModelSettings : it.openModelSettings}
          </button>
        </p>
      )}
      {hasNoChannel && isSettingsOpen && <QuestionModelSettings controller={controller} view={view} />}

      <Conversation record={record} session={state} language={view.interfaceLanguage} />
      {speechNotice && (
        <p class="notice">
          {speechNotice.kind === "failed" ? it.speechFailed(speechNotice.code) : t.speechNotRecognised}
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
        {speech && (
          <button
            type="button"
            data-testid="speak-button"
            disabled={isListening}
            onClick={() => listen().catch(() => undefined)}
          >
            {isListening ? t.listening : t.speak}
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
