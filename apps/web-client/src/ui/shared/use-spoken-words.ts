import { useMemo, useState } from "preact/hooks";
import { createSpeechInput, type RecognitionScope, SpeechInputError } from "../../app/voice/speech-input.js";

/** What listening last came to, worded when shown. */
export type SpeechNotice =
  | { readonly kind: "not-recognised" }
  | { readonly kind: "failed"; readonly code: string };

export interface SpokenWords {
  /** Null where the browser has no speech recognition (the words are typed). */
  readonly isAvailable: boolean;
  readonly isListening: boolean;
  readonly notice: SpeechNotice | null;
  /** Listens once in `language`; what is heard goes to `onHeard`, to be read over before it is sent. */
  listen(language: string, onHeard: (heard: string) => void): Promise<void>;
}

/**
 * Words spoken into a text box in the call (a reply, a deny's reason): one utterance, recognised in the brief's
 * language, added to what is typed. A misheard word must not reach the agent unseen, so nothing is sent from here.
 */
export function useSpokenWords(isWanted = true): SpokenWords {
  const speech = useMemo(
    () => (isWanted ? createSpeechInput(globalThis as RecognitionScope) : null),
    [isWanted],
  );
  const [isListening, setListening] = useState(false);
  const [notice, setNotice] = useState<SpeechNotice | null>(null);
  return {
    isAvailable: speech !== null,
    isListening,
    notice,
    async listen(language, onHeard) {
      if (!speech) return;
      setNotice(null);
      setListening(true);
      try {
        const heard = await speech.listen(language);
        if (heard === "") setNotice({ kind: "not-recognised" });
        else onHeard(heard);
      } catch (caught) {
        setNotice({
          kind: "failed",
          code: caught instanceof SpeechInputError ? caught.problem : String(caught),
        });
      } finally {
        setListening(false);
      }
    },
  };
}

/** Heard words added after what is typed. */
export function withHeard(typed: string, heard: string): string {
  return typed.trim() === "" ? heard : `${typed.trimEnd()} ${heard}`;
}
