import type { CallRecord, QuestionSessionView } from "@ringback/client";
import { CORE_TEXTS, type InterfaceLanguage, PROBLEM_TEXTS } from "@ringback/client/texts";
import { modelProblemText } from "@ringback/client/views";
import { texts } from "../shared/use-texts.js";

interface Props {
  readonly record: CallRecord;
  readonly session: QuestionSessionView;
  readonly language: InterfaceLanguage;
}

/** The questions asked in the call and their answers, the one streaming in, and why the last one failed. */
export function Conversation({ record, session: state, language }: Props) {
  const t = texts(CORE_TEXTS, language);
  const pt = texts(PROBLEM_TEXTS, language);
  return (
    <>
      <ul class="conversation" data-testid="conversation" aria-live="polite">
        {record.conversation.map((entry, index) => (
          <li
            key={index}
            class={`entry ${entry.role}`}
            data-testid="conversation-entry"
            data-role={entry.role}
          >
            <strong>{entry.role === "user" ? t.you : t.assistant}</strong> <span>{entry.text}</span>
          </li>
        ))}
        {state.status === "answering" && (
          <li class="entry assistant streaming" data-testid="partial-answer">
            <strong>{t.assistant}</strong> <span>{state.partialAnswer || t.answering}</span>
          </li>
        )}
      </ul>
      {state.status === "failed" && state.error && (
        <p class="error" data-testid="answer-error">
          {t.answerFailed(modelProblemText(state.error, pt))}
        </p>
      )}
    </>
  );
}
