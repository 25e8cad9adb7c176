import type { CallRecord } from "@ringback/client";
import { isNeedsYou, ringsAsNeedsYou } from "@ringback/client";
import { CORE_TEXTS, FLEET_TEXTS, IN_CALL_TEXTS } from "@ringback/client/texts";
import { useRef } from "preact/hooks";
import type { AppController, AppView } from "../../app/controller/app-controller.js";
import { ReplyBox } from "../calls/reply-box.js";
import { useObservable } from "../shared/use-observable.js";
import { texts } from "../shared/use-texts.js";
import { BriefCards } from "./brief-cards.js";
import { CallControl } from "./call-control.js";
import { CallHeader } from "./call-header.js";
import { DecisionBox } from "./decision-box.js";
import { DecisionButtons } from "./decision-buttons.js";
import { OpenQuestions } from "./open-questions.js";
import { QuestionsPanel } from "./questions-panel.js";
import { ReaderButtons } from "./reader-buttons.js";
import { ReadingSection } from "./reading-section.js";
import { RoundUpBar } from "./round-up-bar.js";
import { useDecision } from "./use-decision.js";
import { useInCallReader } from "./use-in-call-reader.js";
import { useQuestionSession } from "./use-question-session.js";

interface Props {
  readonly controller: AppController;
  readonly view: AppView;
  readonly record: CallRecord;
}

/**
 * In call, on one screen as a phone call is: who calls and the brief's title at the top; what is read (sentence by
 * sentence, the current one marked), the brief's cards, the reply, the questions and the original scrolling in their
 * own area; and the controls fixed at the bottom: back, the speaker (pause or resume), skip, Reply (which brings the
 * reply box up) and Hang up. Without a brief the agent's report is what is read, shown once. A permission ask shows
 * the exact request in the scrolling area and Allow once and Deny among the controls, replaced by what happened once
 * decided; it takes no reply: the agent waits for a decision, not for words. A tracker agent's question is "needs
 * you" too, but it waits for words: it keeps its card and the reply, which is posted as a comment on the issue. In a
 * round-up its opening is shown and read first, and Next, Skip and Answer go through its calls.
 */
export function InCallScreen({ controller, view, record }: Props) {
  const t = texts(CORE_TEXTS, view.interfaceLanguage);
  const it = texts(IN_CALL_TEXTS, view.interfaceLanguage);
  const ft = texts(FLEET_TEXTS, view.interfaceLanguage);
  const roundUpView = useObservable(controller.roundUp);
  const roundUp = roundUpView.roundUp?.eventIds.includes(record.eventId) ? roundUpView.roundUp : null;
  const { reader, reading } = useInCallReader(controller, record, {
    isHeld: roundUp !== null && roundUp.position < 0,
    readings: roundUp?.readings,
  });
  const session = useQuestionSession(controller, record, reader, reading);
  const decision = useDecision(controller, record, view.interfaceLanguage);
  const replySection = useRef<HTMLElement>(null);
  const script = controller.reading.script(record);
  const isAsk = isNeedsYou(record);
  const isNeedsYouCall = ringsAsNeedsYou(record);
  const hangUp = () => {
    session.stop();
    if (roundUp) controller.roundUp.hangUp();
    else controller.calls.hangUp(record.eventId);
  };
  const showReply = () => {
    const section = replySection.current;
    section?.scrollIntoView({ block: "end", behavior: "smooth" });
    section?.querySelector("textarea")?.focus({ preventScroll: true });
  };
  return (
    <main
      class={isNeedsYouCall ? "screen in-call needs-you" : "screen in-call"}
      data-testid="in-call-screen"
      data-event-id={record.eventId}
      data-kind={isNeedsYouCall ? "needs-you" : "finished"}
    >
      <CallHeader caller={controller.callerName(record)} script={script} record={record} it={it} />

      <div class="call-body" data-testid="call-body">
        {roundUp && roundUp.position < 0 && roundUpView.opening && (
          <p class="reading" data-testid="round-up-opening" lang={roundUpView.opening.language}>
            {roundUpView.opening.text}
          </p>
        )}
        {isAsk && decision && <DecisionBox decision={decision} speechLanguage={script.language} />}

        <ReadingSection script={script} reading={reading} language={view.interfaceLanguage} />

        {!isAsk && <BriefCards script={script} reader={reader} t={t} />}

        <OpenQuestions questions={script.openQuestions} t={t} />

        {!isAsk && (
          <section class="in-call-reply-section" data-testid="in-call-reply" ref={replySection}>
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
      </div>

      <footer class="call-controls" data-testid="call-controls">
        {roundUp && (
          <RoundUpBar
            controller={controller}
            roundUpView={roundUpView}
            ft={ft}
            onAnswer={() => {
              if (!isAsk) showReply();
            }}
          />
        )}
        {isAsk && decision && (
          <div class="decision">
            <DecisionButtons decision={decision} />
          </div>
        )}
        <div class="control-row">
          <ReaderButtons reader={reader} status={reading?.state.status} t={t} />
          {!isAsk && <CallControl icon="reply" label={t.reply} testId="reply-control" onClick={showReply} />}
          <CallControl
            icon="hang-up"
            label={t.hangUp}
            testId="hang-up-button"
            className="hang-up"
            onClick={hangUp}
          />
        </div>
      </footer>
    </main>
  );
}
