import { SPOKEN_PARAGRAPH_MAX_RATIO, SPOKEN_RATIO_MIN_ORIGINAL_CHARS } from "@ringback/protocol";
import type { FakeBriefDraft } from "./answers.js";

/** Where the brief prompt puts the report; without these tags the last user message is the report. */
const REPORT_PATTERN = /<report>\n?([\s\S]*?)\n?<\/report>/;
/** The rewrite schema is the only one with this field; an echo of a rewrite must carry it. */
const REWRITE_FIELD = "supplementaryHeading";
const TITLE_MAX_CHARS = 80;
const OPEN_QUESTIONS_MAX = 3;

interface ChatMessage {
  role?: unknown;
  content?: unknown;
}

function messagesOf(body: unknown): ChatMessage[] {
  const messages = (body as { messages?: unknown } | null)?.messages;
  return Array.isArray(messages) ? (messages as ChatMessage[]) : [];
}

function textOf(message: ChatMessage): string {
  if (typeof message.content === "string") return message.content;
  if (Array.isArray(message.content)) {
    return message.content
      .map((part) => (typeof part?.text === "string" ? (part.text as string) : ""))
      .join("");
  }
  return "";
}

/** The report text the request carries. */
export function reportOf(body: unknown): string {
  const userTexts = messagesOf(body)
    .filter((message) => message.role === "user")
    .map(textOf);
  for (const text of userTexts) {
    const match = REPORT_PATTERN.exec(text);
    if (match) return match[1] ?? "";
  }
  return userTexts.at(-1) ?? "";
}

/** The last user message: what an in-call question asks. */
export function lastUserMessage(body: unknown): string {
  const user = messagesOf(body).filter((message) => message.role === "user");
  const last = user.at(-1);
  return last ? textOf(last) : "";
}

const length = (text: string) => Array.from(text).length;

function sentencesOf(text: string): string[] {
  return text
    .split(/(?<=[.!?。！？])\s+|\n+/u)
    .map((sentence) => sentence.replace(/\s+/g, " ").trim())
    .filter((sentence) => sentence.length > 0);
}

/**
 * A brief that passes the brief checks, built from the report: the leading sentences that fit in the spoken
 * limit, the first of them as a covered critical fact, questions of the report as open questions.
 */
export function echoBrief(body: unknown): FakeBriefDraft {
  const report = reportOf(body);
  const sentences = sentencesOf(report);
  const limit =
    length(report) >= SPOKEN_RATIO_MIN_ORIGINAL_CHARS
      ? Math.floor(length(report) * SPOKEN_PARAGRAPH_MAX_RATIO)
      : length(report);
  const spokenSentences: string[] = [];
  let spokenLength = 0;
  for (const sentence of sentences) {
    const nextLength = spokenLength + (spokenSentences.length > 0 ? 1 : 0) + length(sentence);
    if (nextLength > limit) break;
    spokenSentences.push(sentence);
    spokenLength = nextLength;
  }
  const spoken =
    spokenSentences.length > 0
      ? spokenSentences.join(" ")
      : Array.from(report.replace(/\s+/g, " ").trim()).slice(0, limit).join("");
  const firstSentence = spokenSentences[0];
  const draft: FakeBriefDraft = {
    title: Array.from(sentences[0] ?? "Report")
      .slice(0, TITLE_MAX_CHARS)
      .join(""),
    spoken,
    cards: [{ title: "Report", body: spoken }],
    openQuestions: sentences.filter((sentence) => sentence.endsWith("?")).slice(0, OPEN_QUESTIONS_MAX),
    criticalFacts: firstSentence ? [{ fact: firstSentence, covered: true }] : [],
  };
  if (JSON.stringify(body).includes(REWRITE_FIELD)) draft.supplementaryHeading = "Also important";
  return draft;
}
