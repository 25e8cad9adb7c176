import { type BriefDraft, SPOKEN_PARAGRAPH_MAX_RATIO } from "@ringback/protocol";
import type { BriefCheck } from "./checks.js";
import type { ChatMessage } from "./prompt.js";
import { briefLanguageInWords } from "./prompt.js";

function quoted(fact: string): string {
  return `"${fact}"`;
}

/** What was wrong with the draft, as the model is told it. */
function rewriteInstructions(check: BriefCheck, language: string): string {
  const problems: string[] = [];
  const notCovered = check.uncoveredFacts.filter((fact) => fact.reason === "not_covered");
  if (notCovered.length > 0) {
    problems.push(
      `- The spoken paragraph does not state these critical facts: ${notCovered.map((fact) => quoted(fact.fact)).join("; ")}.`,
    );
  }
  for (const fact of check.uncoveredFacts.filter((entry) => entry.reason === "numbers_missing")) {
    problems.push(
      `- The critical fact ${quoted(fact.fact)} is marked covered, but the spoken paragraph lacks its numbers ${fact.missingNumbers.join(", ")}; write them as digits.`,
    );
  }
  if (check.isTooLong && check.maxSpokenChars !== null) {
    problems.push(
      `- The spoken paragraph has ${check.spokenChars} characters; it may have at most ${check.maxSpokenChars} (${Math.round(SPOKEN_PARAGRAPH_MAX_RATIO * 100)} % of the report's ${check.originalChars}). Make it shorter and keep every critical fact in it.`,
    );
  }
  return [
    "Rewrite the brief once to fix this:",
    ...problems,
    "",
    "Return the whole brief again. Keep the same critical facts with the same wording, each with covered telling whether the new spoken paragraph states it.",
    `Also return supplementaryHeading: a short heading in ${briefLanguageInWords(language)}, like "Also important" in English, read aloud before any critical fact that still is not in the spoken paragraph.`,
  ].join("\n");
}

/** The messages of the rewrite call: the first conversation, the draft as the model's answer, the fixes. */
export function rewriteMessages(options: {
  firstMessages: ChatMessage[];
  draft: BriefDraft;
  check: BriefCheck;
  language: string;
}): ChatMessage[] {
  return [
    ...options.firstMessages,
    { role: "assistant", content: JSON.stringify(options.draft) },
    { role: "user", content: rewriteInstructions(options.check, options.language) },
  ];
}
