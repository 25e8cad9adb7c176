/** The part of the Web Speech API's SpeechRecognition that spoken questions use. */
export interface RecognitionLike {
  lang: string;
  continuous: boolean;
  interimResults: boolean;
  maxAlternatives: number;
  onresult: ((event: { results: ArrayLike<ArrayLike<{ transcript: string }>> }) => void) | null;
  onerror: ((event: { error: string }) => void) | null;
  onend: (() => void) | null;
  start(): void;
  stop(): void;
  abort(): void;
}

type RecognitionConstructor = new () => RecognitionLike;

/** Where a browser keeps its speech recognition: standard, or the prefixed name Chromium and Safari use. */
export interface RecognitionScope {
  readonly SpeechRecognition?: unknown;
  readonly webkitSpeechRecognition?: unknown;
}

/** Speech recognition failed; `problem` is the engine's code, which the screen puts in a translated sentence. */
export class SpeechInputError extends Error {
  override readonly name = "SpeechInputError";
  /** The recogniser's error name (`no-speech`, `not-allowed`, `network`, …). */
  constructor(readonly problem: string) {
    super(`Speech recognition failed: ${problem}`);
  }
}

/** A spoken question: one utterance, recognised in a language; an empty string when nothing was recognised. */
export interface SpeechInput {
  listen(language: string): Promise<string>;
  stop(): void;
}

/** The browser's speech recognition, or null where it has none (the question is then typed). */
export function createSpeechInput(scope: RecognitionScope): SpeechInput | null {
  const Recognition = (scope.SpeechRecognition ?? scope.webkitSpeechRecognition) as
    | RecognitionConstructor
    | undefined;
  if (typeof Recognition !== "function") return null;
  let active: RecognitionLike | null = null;
  return {
    listen(language) {
      active?.abort();
      const recognition = new Recognition();
      active = recognition;
      recognition.lang = language;
      recognition.continuous = false;
      recognition.interimResults = false;
      recognition.maxAlternatives = 1;
      return new Promise((resolve, reject) => {
        let transcript = "";
        recognition.onresult = (event) => {
          transcript = Array.from(event.results, (result) => result[0]?.transcript ?? "")
            .join(" ")
            .trim();
        };
        recognition.onerror = (event) => {
          // Silence is not a failure: the screen says nothing was recognised.
          if (event.error === "no-speech" || event.error === "aborted") return;
          reject(new SpeechInputError(event.error));
        };
        recognition.onend = () => {
          if (active === recognition) active = null;
          resolve(transcript);
        };
        try {
          recognition.start();
        } catch (error) {
          // A recogniser that refuses to start (already listening, no permission) throws a DOMException: its name
          // is the engine's code, like the error events' codes.
          if (active === recognition) active = null;
          reject(new SpeechInputError(error instanceof Error ? error.name : String(error)));
        }
      });
    },
    stop() {
      active?.stop();
    },
  };
}
