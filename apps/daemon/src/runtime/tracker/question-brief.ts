import { describeTrackerQuestion } from "@ringback/brief";
import { Brief } from "@ringback/protocol";
import type { TrackerQuestionRecord } from "./tracker-questions.js";

/** A question call's brief: the question in words, made without a model, like a permission call's. */
export function trackerQuestionBrief(question: TrackerQuestionRecord, language: string, now: Date): Brief {
  const words = describeTrackerQuestion({ ...question, language });
  return Brief.parse({
    title: words.title,
    spoken: words.spoken,
    cards: [words.card],
    openQuestions: [],
    criticalFacts: [],
    supplementary: null,
    meta: {
      status: "generated",
      llmCalls: 0,
      model: null,
      language,
      error: null,
      generatedAt: now.toISOString(),
    },
  });
}
