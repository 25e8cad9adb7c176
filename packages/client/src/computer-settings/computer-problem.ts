import { isE2eError } from "@ringback/e2e-crypto";
import { isRingbackError } from "@ringback/protocol";
import { NoComputerError } from "../daemon/computer-choice.js";
import { isComputerOffline } from "../daemon/daemon-error.js";
import type { ComputerTexts } from "../i18n/texts/computer.js";
import { isRelayError } from "../relay/relay-error.js";

/**
 * What went wrong in Settings › Your computer, in the words the screen uses: a refusal of the computer's daemon
 * (the protocol's codes), the relay between, or a form the user has not finished.
 */
export type ComputerProblemKind =
  | "no-computer"
  | "computer-offline"
  | "key-differs"
  | "not-relayed"
  | "relay-unreachable"
  | "invalid-tracker-token"
  | "tracker-not-configured"
  | "workspace-not-found"
  | "tracker-unavailable"
  | "invalid-llm-settings"
  | "llm-key-required"
  | "token-required"
  | "no-workspace"
  | "model-incomplete"
  | "model-address"
  | "model-limit"
  | "model-output-cap"
  | "phrase-too-short"
  | "other";

export interface ComputerProblem {
  readonly kind: ComputerProblemKind;
  /** The daemon's or relay's own sentence, shown only for `other`; never a token or a key. */
  readonly detail: string | null;
}

const BY_CODE: Partial<Record<string, ComputerProblemKind>> = {
  undecryptable_request: "key-differs",
  not_relayed: "not-relayed",
  invalid_tracker_token: "invalid-tracker-token",
  tracker_not_configured: "tracker-not-configured",
  workspace_not_found: "workspace-not-found",
  tracker_unavailable: "tracker-unavailable",
  invalid_llm_settings: "invalid-llm-settings",
  llm_key_required: "llm-key-required",
  passphrase_too_short: "phrase-too-short",
};

/** A problem the form itself found, before asking the computer. */
export function formProblem(kind: ComputerProblemKind): ComputerProblem {
  return { kind, detail: null };
}

/** The problem a failed relayed daemon request (or key derivation) stands for. */
export function computerProblemOf(error: unknown): ComputerProblem {
  if (error instanceof NoComputerError) return formProblem("no-computer");
  if (isComputerOffline(error)) return formProblem("computer-offline");
  if (isE2eError(error, "passphrase_too_short")) return formProblem("phrase-too-short");
  if (isRingbackError(error)) {
    const kind = BY_CODE[error.code];
    return kind ? formProblem(kind) : { kind: "other", detail: error.message };
  }
  if (isRelayError(error) && error.status === null) return formProblem("relay-unreachable");
  return { kind: "other", detail: error instanceof Error ? error.message : String(error) };
}

/** The sentence for a problem, in the interface language's texts. */
export function computerProblemText(problem: ComputerProblem, t: ComputerTexts): string {
  switch (problem.kind) {
    case "no-computer":
      return t.problemNoComputer;
    case "computer-offline":
      return t.problemComputerOffline;
    case "key-differs":
      return t.problemKeyDiffers;
    case "not-relayed":
      return t.problemNotRelayed;
    case "relay-unreachable":
      return t.problemRelayUnreachable;
    case "invalid-tracker-token":
      return t.problemInvalidTrackerToken;
    case "tracker-not-configured":
      return t.problemTrackerNotConfigured;
    case "workspace-not-found":
      return t.problemWorkspaceNotFound;
    case "tracker-unavailable":
      return t.problemTrackerUnavailable;
    case "invalid-llm-settings":
      return t.problemInvalidLlmSettings;
    case "llm-key-required":
      return t.problemLlmKeyRequired;
    case "token-required":
      return t.problemTokenRequired;
    case "no-workspace":
      return t.problemNoWorkspace;
    case "model-incomplete":
      return t.problemModelIncomplete;
    case "model-address":
      return t.problemModelAddress;
    case "model-limit":
      return t.problemModelLimit;
    case "model-output-cap":
      return t.problemModelOutputCap;
    case "phrase-too-short":
      return t.problemPhraseTooShort;
    case "other":
      return t.problemOther(problem.detail ?? "");
  }
}
