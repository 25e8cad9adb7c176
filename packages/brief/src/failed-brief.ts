import type { Brief, Report } from "@ringback/protocol";

/** A failed brief's title is the report's first line, cut to this many characters. */
export const FAILED_BRIEF_TITLE_MAX_CHARS = 120;

/** The report's first non-empty line without markdown markers, for a brief the model did not write. */
export function reportTitle(report: Report): string {
  const firstLine = report.text
    .split(/\r?\n/)
    .map((line) =>
      line
        .trim()
        .replace(/^(?:#{1,6}\s+|[-*+>]\s+)/, "")
        .replace(/^(\*\*|__)(.*)\1$/, "$2")
        .trim(),
    )
    .find((line) => line.length > 0);
  const title = firstLine ?? report.tracker?.issueTitle ?? "Report";
  const characters = Array.from(title);
  return characters.length > FAILED_BRIEF_TITLE_MAX_CHARS
    ? `${characters.slice(0, FAILED_BRIEF_TITLE_MAX_CHARS - 1).join("")}…`
    : title;
}

/** The brief of a report the model could not brief: the client reads the original text aloud instead. */
export function failedBrief(options: {
  report: Report;
  language: string;
  llmCalls: number;
  model: string | null;
  error: string;
}): Brief {
  return {
    title: reportTitle(options.report),
    spoken: "",
    cards: [],
    openQuestions: [],
    criticalFacts: [],
    supplementary: null,
    meta: {
      status: "failed",
      llmCalls: options.llmCalls,
      model: options.model,
      language: options.language,
      error: options.error,
      generatedAt: new Date().toISOString(),
    },
  };
}
