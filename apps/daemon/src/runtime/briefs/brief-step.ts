import { generateBrief } from "@ringback/brief";
import type { GenerateBrief } from "@ringback/outbox";
import type { ConfigFile } from "../files/config-file.js";
import { configuredChannel } from "../model/llm-settings.js";
import { modelFetch } from "../model/model-fetch/model-fetch.js";
import type { ModelSlots } from "../model/model-slots.js";
import { trackerQuestionBrief } from "../tracker/question-brief.js";
import type { TrackerQuestions } from "../tracker/tracker-questions.js";
import { currentBriefLanguage } from "./brief-language.js";

/**
 * The outbox's brief step: `@ringback/brief` with the channel and language current when the brief starts
 * (no channel: the spec's failed brief with no model call), one at a time against a local model (`ModelSlots`):
 * the brief's clock starts only when its turn comes. The calls go through `modelFetch`, so only the brief's own
 * limits end them (Node's fetch stops waiting for a response's head at 300 s). A tracker question's brief is the
 * question in words, made without a model.
 */
export function createBriefStep(
  config: ConfigFile,
  systemLanguage: string,
  slots: ModelSlots,
  questions: TrackerQuestions,
): GenerateBrief {
  return async (report, signal) => {
    const question = questions.get(report.eventId);
    if (question) {
      const { language } = currentBriefLanguage(config.raw, systemLanguage);
      return trackerQuestionBrief(question, language, new Date());
    }
    const channel = configuredChannel(config.raw);
    const brief = () =>
      generateBrief({
        report,
        channel: configuredChannel(config.raw),
        language: currentBriefLanguage(config.raw, systemLanguage).language,
        signal,
        fetch: modelFetch,
      });
    return channel === null ? brief() : slots.run(channel.baseUrl, signal, brief);
  };
}
