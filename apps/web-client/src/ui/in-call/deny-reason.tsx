import type { NeedsYouTexts, ProblemTexts } from "@ringback/client/texts";
import { hearingProblemText } from "../../app/voice/voice-problem.js";
import { useSpokenWords, withHeard } from "../shared/use-spoken-words.js";

interface Props {
  readonly reason: string;
  /** False once the agent stopped waiting or while a decision is being sent. */
  readonly isLive: boolean;
  /** The brief's language: a spoken reason is recognised in it. */
  readonly speechLanguage: string;
  readonly t: NeedsYouTexts;
  readonly pt: ProblemTexts;
  /** Takes the reason as it stands when the change lands: words heard are added to what was typed meanwhile. */
  readonly setReason: (change: (typed: string) => string) => void;
}

/** Deny's optional reason, typed or spoken. */
export function DenyReason({ reason, isLive, speechLanguage, t, pt, setReason }: Props) {
  const speech = useSpokenWords();
  return (
    <>
      <textarea
        class="ask-reason"
        data-testid="deny-reason"
        aria-label={t.reasonLabel}
        placeholder={t.reasonPlaceholder}
        value={reason}
        disabled={!isLive}
        onInput={(event) => {
          const typed = event.currentTarget.value;
          setReason(() => typed);
        }}
      />
      {speech.notice && (
        <p class="notice" data-testid="reason-speech-notice">
          {speech.notice.kind === "failed"
            ? t.reasonSpeechFailed(hearingProblemText(speech.notice.code, pt))
            : t.reasonNotRecognised}
        </p>
      )}
      {speech.isAvailable && (
        <button
          type="button"
          class="speak-reason"
          data-testid="speak-reason"
          disabled={!isLive || speech.isListening}
          onClick={() =>
            speech
              .listen(speechLanguage, (heard) => setReason((typed) => withHeard(typed, heard)))
              .catch(() => undefined)
          }
        >
          {speech.isListening ? t.listening : t.speak}
        </button>
      )}
    </>
  );
}
