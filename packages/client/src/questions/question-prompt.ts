import { languageName, type SealedReportPayload } from "@ringback/protocol";
import type { ConversationEntry, DecisionEntry } from "../calls/call-record.js";
import type { BriefScript } from "../reading/brief-script.js";
import { defaultFormOfAddress } from "../reading/form-of-address.js";
import type { ChatMessage } from "./ask-model.js";
import { describeProgress, type ListeningProgress } from "./listening-progress.js";

export interface QuestionContext {
  readonly payload: SealedReportPayload;
  /** The brief as the call reads it, with the form of address in place. */
  readonly script: BriefScript;
  readonly progress: ListeningProgress;
  readonly conversation: readonly ConversationEntry[];
  readonly decisions: readonly DecisionEntry[];
  readonly formOfAddress: string | null;
}

/**
 * The messages of an in-call question: instructions naming the brief language, the full report text, the brief,
 * the listening progress and the decisions so far, then the conversation so far, then the question.
 */
export function questionMessages(context: QuestionContext, question: string): ChatMessage[] {
  const { script, payload } = context;
  const language = script.language;
  const address = context.formOfAddress?.trim() || defaultFormOfAddress(language);
  const brief = [
    `Title: ${script.title}`,
    script.isBriefFailed
      ? "No brief could be written; the original report is read aloud instead."
      : `Spoken paragraph: ${script.main.map((segment) => segment.sentences.join(" ")).join("\n")}`,
    ...script.cardTexts.map((card, index) => `Card ${index + 1}, "${card.title}": ${card.body}`),
    ...(script.openQuestions.length > 0
      ? [`Open questions for the user: ${script.openQuestions.map((open) => `"${open}"`).join("; ")}`]
      : []),
  ].join("\n");
  const decisions =
    context.decisions.length === 0
      ? "None yet."
      : context.decisions
          .map(
            (decision) =>
              `"${decision.text}"${decision.question ? ` (settles: "${decision.question}")` : ""}`,
          )
          .join("\n");
  const system = [
    `You are on a phone call with the user, whom you address as "${address}". A coding agent finished a task and`,
    "you briefed the user about its report; now you answer the user's questions about it.",
    `Answer in ${languageName(language)} (${language}), whatever language the question is in.`,
    "Speak the way people talk on the phone: short, plain sentences, no markdown, no lists, no code blocks.",
    "Use only what the report says; when it does not say, say so. When the user decides something, confirm it in",
    "one sentence.",
    "",
    `<report source="${payload.report.source}">`,
    payload.report.text,
    "</report>",
    "",
    "<brief>",
    brief,
    "</brief>",
    "",
    "<listening-progress>",
    describeProgress(script, context.progress),
    "</listening-progress>",
    "",
    "<decisions>",
    decisions,
    "</decisions>",
  ].join("\n");
  return [
    { role: "system", content: system },
    ...context.conversation.map((entry) => ({ role: entry.role, content: entry.text })),
    { role: "user", content: question },
  ];
}
