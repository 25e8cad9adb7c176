import { IN_CALL_TEXTS, type InterfaceLanguage, PROBLEM_TEXTS } from "@ringback/client/texts";
import { hearingProblemText } from "../../app/voice/voice-problem.js";
import { errorText } from "../shared/error-text.js";
import type { SpeechNotice } from "../shared/use-spoken-words.js";
import { texts } from "../shared/use-texts.js";

interface Props {
  /** The last send was refused before it left: the box was empty. */
  readonly isEmptyRefused: boolean;
  /** What the last send failed with, or null. */
  readonly failure: unknown;
  readonly speechNotice: SpeechNotice | null;
  readonly language: InterfaceLanguage;
}

/** Why the reply was not sent, and what listening for a spoken reply came to. */
export function ReplyNotices({ isEmptyRefused, failure, speechNotice, language }: Props) {
  const it = texts(IN_CALL_TEXTS, language);
  return (
    <>
      {(isEmptyRefused || failure !== null) && (
        <p class="error" data-testid="reply-error">
          {isEmptyRefused ? it.replyEmpty : it.replySendFailed(errorText(failure, language))}
        </p>
      )}
      {speechNotice && (
        <p class="notice" data-testid="reply-speech-notice">
          {speechNotice.kind === "failed"
            ? it.replySpeechFailed(hearingProblemText(speechNotice.code, texts(PROBLEM_TEXTS, language)))
            : it.replyNotRecognised}
        </p>
      )}
    </>
  );
}
