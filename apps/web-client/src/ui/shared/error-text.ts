import { isRelayError, ModelAnswerError, PairingLinkError } from "@ringback/client";
import type { InterfaceLanguage } from "@ringback/client/texts";
import { CORE_TEXTS, type CoreTexts, PROBLEM_TEXTS } from "@ringback/client/texts";
import { modelProblemText } from "@ringback/client/views";
import { isE2eError } from "@ringback/e2e-crypto";
import { VoiceUnavailableError, voiceProblemText } from "../../app/voice/voice-problem.js";

const RELAY_CODES: Record<string, keyof CoreTexts> = {
  invalid_pairing_code: "errorInvalidPairingCode",
  rate_limited: "errorRateLimited",
  device_removed: "noticeDeviceRemoved",
  computer_offline: "errorComputerOffline",
};

const LINK_PROBLEMS: Record<PairingLinkError["problem"], keyof CoreTexts> = {
  not_a_pairing_link: "errorLinkNotPairing",
  invalid_code: "errorLinkCode",
  invalid_key: "errorLinkKey",
  invalid_server: "errorLinkServer",
};

/** A sentence for the person in front of the screen, in the interface language; never a token or a key. */
export function errorText(error: unknown, language: InterfaceLanguage = "en"): string {
  const t = CORE_TEXTS[language];
  if (error instanceof PairingLinkError) return t[LINK_PROBLEMS[error.problem]] as string;
  if (isE2eError(error, "passphrase_too_short")) return t.errorPhraseTooShort;
  if (error instanceof ModelAnswerError) return modelProblemText(error.problem, PROBLEM_TEXTS[language]);
  if (error instanceof VoiceUnavailableError) return voiceProblemText(error.problem, PROBLEM_TEXTS[language]);
  if (isRelayError(error)) {
    if (error.status === null) return t.errorRelayUnreachable;
    // The relay's claim-code message says where to find the code; it is kept as the relay wrote it.
    const key = error.code ? RELAY_CODES[error.code] : undefined;
    if (key) return t[key] as string;
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}
