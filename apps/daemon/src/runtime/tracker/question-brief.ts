import { briefInWords, describeTrackerQuestion } from "@ringback/brief";
import type { Brief } from "@ringback/protocol";
import type { TrackerQuestionRecord } from "./tracker-questions.js";

/**
 * A question call's brief: the question in words, made without a model, like a permission call's; its language is the
 * one the words are in.
 */
export function trackerQuestionBrief(question: TrackerQuestionRecord, language: string, now: Date): Brief {
  const words = describeTrackerQuestion({ ...question, language });
  return briefInWords(words, words.language, now);
}
