import { isRelayError, ModelAnswerError, PairingLinkError } from "@ringback/client";
import type { InterfaceLanguage } from "@ringback/client/texts";
import { CORE_TEXTS, type CoreTexts, ERROR_CODE_TEXTS, PROBLEM_TEXTS } from "@ringback/client/texts";
import { modelProblemText } from "@ringback/client/views";
import { isE2eError } from "@ringback/e2e-crypto";
import { isErrorCode, isRingbackError } from "@ringback/protocol";
import { VoiceUnavailableError, voiceProblemText } from "../../app/voice/voice-problem.js";

const LINK_PROBLEMS: Record<PairingLinkError["problem"], keyof CoreTexts> = {
  not_a_pairing_link: "errorLinkNotPairing",
  invalid_code: "errorLinkCode",
  invalid_key: "errorLinkKey",
  invalid_server: "errorLinkServer",
};

const MINUTE_MS = 60_000;

/** The wait a relay asked for, rounded up to what a person plans by: seconds under a minute, else minutes. */
function waitText(waitMs: number, t: CoreTexts): string {
  if (waitMs < MINUTE_MS) return t.waitSeconds(Math.max(1, Math.ceil(waitMs / 1000)));
  return t.waitMinutes(Math.ceil(waitMs / MINUTE_MS));
}

/**
 * A sentence for the person in front of the screen, in the interface language: what happened and the next step;
 * never a token, a key or a bare code. A relay's or a computer's refusal is worded by its code (the protocol's table,
 * every code has a sentence); a refusal that says how long to wait says that wait.
 */
export function errorText(error: unknown, language: InterfaceLanguage = "en"): string {
  const t = CORE_TEXTS[language];
  if (error instanceof PairingLinkError) return t[LINK_PROBLEMS[error.problem]] as string;
  if (isE2eError(error, "passphrase_too_short")) return t.errorPhraseTooShort;
  if (error instanceof ModelAnswerError) return modelProblemText(error.problem, PROBLEM_TEXTS[language]);
  if (error instanceof VoiceUnavailableError) return voiceProblemText(error.problem, PROBLEM_TEXTS[language]);
  if (isRelayError(error)) {
    if (error.status === null) return t.errorRelayUnreachable;
    if (error.code === "rate_limited" && error.retryAfterMs !== null)
      return t.errorRateLimitedFor(waitText(error.retryAfterMs, t));
    if (isErrorCode(error.code)) return ERROR_CODE_TEXTS[language][error.code];
    return t.errorRelayStatus(error.status);
  }
  if (isRingbackError(error)) return ERROR_CODE_TEXTS[language][error.code];
  return error instanceof Error ? error.message : String(error);
}
