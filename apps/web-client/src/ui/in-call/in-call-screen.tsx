import type { CallRecord } from "@ringback/client";
import { isNeedsYou, ringsAsNeedsYou } from "@ringback/client";
import { CORE_TEXTS, IN_CALL_TEXTS } from "@ringback/client/texts";
import type { AppController, AppView } from "../../app/controller/app-controller.js";
import { ReplyBox } from "../calls/reply-box.js";
import { texts } from "../shared/use-texts.js";
import { BriefCards } from "./brief-cards.js";
import { CallHeader } from "./call-header.js";
import { DecisionBox } from "./decision-box.js";
import { OpenQuestions } from "./open-questions.js";
import { QuestionsPanel } from "./questions-panel.js";
import { ReaderButtons } from "./reader-buttons.js";
import { ReadingSection } from "./reading-section.js";
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
      <CallHeader caller={controller.callerName(record)} script={script} record={record} it={it} />

      {isAsk && (
        <DecisionBox
          controller={controller}
          record={record}
          language={view.interfaceLanguage}
          speechLanguage={script.language}
        />
      )}

      <ReadingSection script={script} reading={reading} language={view.interfaceLanguage} />

      <ReaderButtons reader={reader} status={state?.status} t={t} />

      {!isAsk && <BriefCards script={script} reader={reader} t={t} />}

      <OpenQuestions questions={script.openQuestions} t={t} />

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
