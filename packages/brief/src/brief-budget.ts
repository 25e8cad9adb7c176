import { type LlmChannel, type ModelEndpointKind, modelEndpointKind, type Report } from "@ringback/protocol";
import { cachedBriefRewriteJsonSchema } from "./brief-schema.js";
import { BRIEF_OUTPUT_TOKENS_MAX, briefOutputTokens } from "./output-limit.js";
import { briefMessages } from "./prompt.js";
import { type GivenReport, reportWithinBudget } from "./report-cut.js";
import { estimatePromptTokens } from "./token-estimate.js";

/**
 * The context a model is assumed to have: 4,096 tokens for a local one (llama.cpp's and LM Studio's usual
 * setting, and what a laptop's memory affords); 32,768 for a hosted one (every current hosted model has more).
 */
export const CONTEXT_TOKENS: Readonly<Record<ModelEndpointKind, number>> = { local: 4096, hosted: 32_768 };
/** The rewrite's instructions (the uncovered facts quoted, the length), at most. */
const REWRITE_INSTRUCTIONS_TOKENS = 320;
/** Left free for the estimate's error and the chat template. */
const CONTEXT_MARGIN_TOKENS = 64;

/** How one brief is bounded: what the model is given of the report and the output limit sent. */
export interface BriefPlan {
  endpoint: ModelEndpointKind;
  given: GivenReport;
  /** Sent as `max_tokens`: the channel's output cap, or by default one sized to the report for a local endpoint and
   * none for a hosted one (see the README). */
  maxTokens: number | undefined;
}

/**
 * The report's budget: the context less the rest of the prompt, the instructions of a rewrite and two answers
 * (the rewrite carries the first answer and writes a second), so both calls fit.
 */
export function reportBudgetTokens(report: Report, channel: LlmChannel, language: string): number {
  const rest = estimatePromptTokens(
    briefMessages({
      report: { ...report, text: "" },
      given: { text: "", isCut: true, originalChars: 0 },
      language,
      channel,
      jsonSchema: cachedBriefRewriteJsonSchema(),
    }),
  );
  const context = CONTEXT_TOKENS[modelEndpointKind(channel.baseUrl)];
  return context - rest - REWRITE_INSTRUCTIONS_TOKENS - 2 * BRIEF_OUTPUT_TOKENS_MAX - CONTEXT_MARGIN_TOKENS;
}

export function briefPlan(report: Report, channel: LlmChannel, language: string): BriefPlan {
  const endpoint = modelEndpointKind(channel.baseUrl);
  const given = reportWithinBudget(report.text, reportBudgetTokens(report, channel, language));
  // The person's own output cap wins. Without one, hosted reasoning models count their thinking in the output limit
  // (and OpenAI's refuse `max_tokens`): a hosted call is bounded by its time limits only.
  const defaultCap = endpoint === "local" ? briefOutputTokens(given.text) : undefined;
  return { endpoint, given, maxTokens: channel.maxOutputTokens ?? defaultCap };
}
