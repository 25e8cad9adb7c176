import { PROBLEM_TEXTS, type ProblemTexts } from "@ringback/client/texts";

/**
 * Why the voice could not be prepared or stopped reading: a kind and its facts (the engine's error code, the
 * platform's address or status), plain data, turned into a sentence in the interface language only when shown.
 */
export type VoiceProblem =
  | { readonly kind: "no-synthesis" }
  /** The browser's `SpeechSynthesisErrorEvent.error` (`synthesis-failed`, `audio-busy`, …). */
  | { readonly kind: "engine-failed"; readonly code: string }
  | { readonly kind: "no-platform" }
  | { readonly kind: "platform-unreachable"; readonly address: string }
  | { readonly kind: "platform-status"; readonly status: number }
  | { readonly kind: "audio-unplayable" }
  /** `play()` refused, with the browser's exception name (`NotAllowedError` when autoplay is blocked). */
  | { readonly kind: "audio-refused"; readonly code: string }
  /** The device has no voice at all: the brief is shown as text. */
  | { readonly kind: "no-voice" }
  /** Not the voice's own: an error from elsewhere, shown as it came. */
  | { readonly kind: "other"; readonly detail: string };

/** The voice platform cannot prepare or read; `problem` says why. The message is the English sentence, for logs. */
export class VoiceUnavailableError extends Error {
  override readonly name = "VoiceUnavailableError";
  constructor(
    readonly problem: VoiceProblem,
    options?: ErrorOptions,
  ) {
    super(voiceProblemText(problem, PROBLEM_TEXTS.en), options);
  }
}

/** The problem a failed voice preparation or sentence stands for. */
export function voiceProblemOf(error: unknown): VoiceProblem {
  if (error instanceof VoiceUnavailableError) return error.problem;
  return { kind: "other", detail: error instanceof Error ? error.message : String(error) };
}

/** The sentence for a problem, in the interface language's texts. */
export function voiceProblemText(problem: VoiceProblem, t: ProblemTexts): string {
  switch (problem.kind) {
    case "no-synthesis":
      return t.voiceNoSynthesis;
    case "engine-failed":
      return engineFailureText(problem.code, t);
    case "no-platform":
      return t.voiceNoPlatform;
    case "platform-unreachable":
      return t.voicePlatformUnreachable(problem.address);
    case "platform-status":
      return t.voicePlatformStatus(problem.status);
    case "audio-unplayable":
      return t.voiceAudioUnplayable;
    case "audio-refused":
      return t.voiceAudioRefused;
    case "no-voice":
      return t.voiceNone;
    case "other":
      return problem.detail;
  }
}

/** What a speech engine's error code (`SpeechSynthesisErrorEvent.error`) means for the person, and what to do. */
function engineFailureText(code: string, t: ProblemTexts): string {
  switch (code) {
    case "audio-busy":
    case "audio-hardware":
      return t.voiceEngineBusy;
    case "network":
      return t.voiceEngineNetwork;
    case "language-unavailable":
    case "voice-unavailable":
      return t.voiceEngineNoLanguage;
    case "not-allowed":
      return t.voiceAudioRefused;
    default:
      return t.voiceEngineFailed;
  }
}

/** What a speech recognition error code (`SpeechRecognitionErrorEvent.error`) means, in one sentence. */
export function hearingProblemText(code: string, t: ProblemTexts): string {
  switch (code) {
    case "no-speech":
      return t.hearingNothing;
    case "audio-capture":
      return t.hearingNoMicrophone;
    case "not-allowed":
    case "service-not-allowed":
      return t.hearingNotAllowed;
    case "network":
      return t.hearingNetwork;
    case "language-not-supported":
      return t.hearingNoLanguage;
    default:
      return t.hearingFailed;
  }
}

/**
 * A call record's voice failure: a `VoiceProblem`, or a plain sentence (records stored before reasons were typed,
 * and reasons written as text), which is shown as it is.
 */
export function voiceFailureText(failure: VoiceProblem | string | null, t: ProblemTexts): string {
  if (failure === null) return "";
  return typeof failure === "string" ? failure : voiceProblemText(failure, t);
}
