import type { DispatchProblem } from "@ringback/client";
import { CORE_TEXTS, DISPATCH_TEXTS, ERROR_CODE_TEXTS, type InterfaceLanguage } from "@ringback/client/texts";
import { texts } from "../shared/use-texts.js";

/**
 * The line a person acts on for a failed dispatch request, in the interface language: the protocol code's text, or
 * that the relay was out of reach. The computer's or relay's own message is never this line (it is the details).
 */
export function problemText(problem: DispatchProblem, language: InterfaceLanguage): string {
  if (problem.code !== null) return texts(ERROR_CODE_TEXTS, language)[problem.code];
  if (problem.isRelayUnreachable) return texts(CORE_TEXTS, language).errorRelayUnreachable;
  return texts(DISPATCH_TEXTS, language).problemUnexplained;
}
