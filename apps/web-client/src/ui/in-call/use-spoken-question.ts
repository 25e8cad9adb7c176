import { useMemo, useState } from "preact/hooks";
import { createSpeechInput, type RecognitionScope, SpeechInputError } from "../../app/voice/speech-input.js";
import type { SpeechNotice } from "../shared/use-spoken-words.js";

/**
 * A question asked aloud, where the browser recognises speech (`speech` is null where it does not): what is heard is
 * asked at once; nothing heard, or a failure, is kept as a notice worded when shown.
 */
export function useSpokenQuestion(language: string, ask: (question: string) => void) {
  const speech = useMemo(() => createSpeechInput(globalThis as RecognitionScope), []);
  const [isListening, setListening] = useState(false);
  const [speechNotice, setSpeechNotice] = useState<SpeechNotice | null>(null);
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
  return { speech, isListening, speechNotice, listen };
}
