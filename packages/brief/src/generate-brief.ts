import {
  type Brief,
  BriefDraft,
  type CriticalFact,
  type LlmChannel,
  NO_LANGUAGE_MODEL_ERROR,
  type Report,
  type ReportCut,
  type SupplementaryParagraph,
} from "@ringback/protocol";
import { briefPlan } from "./brief-budget.js";
import { BriefRewriteDraft, cachedBriefJsonSchema, cachedBriefRewriteJsonSchema } from "./brief-schema.js";
import { callModel } from "./call-model.js";
import { type BriefCheck, characterCount, checkBrief, missingNumbers } from "./checks.js";
import { failedBrief } from "./failed-brief.js";
import { briefMessages } from "./prompt.js";
import { redactDeep } from "./redact.js";
import { rewriteMessages } from "./rewrite.js";
import { supplementaryParagraph } from "./supplementary.js";

export interface GenerateBriefOptions {
  report: Report;
  /** The configured channel, or null when no language model is configured. */
  channel: LlmChannel | null;
  /** The brief language (BCP 47), from `/brief/language`. */
  language: string;
  /** Aborting rejects with the signal's reason (the outbox requeues the report). */
  signal?: AbortSignal;
  fetch?: typeof fetch;
}

function factKey(fact: string): string {
  return fact
    .toLocaleLowerCase()
    .replace(/[\s\p{P}]+/gu, " ")
    .trim();
}

/**
 * The facts of the rewrite, checked, plus the facts of the first draft the rewrite dropped (it was told to
 * keep their wording) that may now be missing: a dropped fact that was uncovered is still uncovered (the
 * rewrite cannot fix a fact by leaving it out), and a dropped fact that was covered counts as reworded only
 * while its numbers are still in the new spoken paragraph.
 */
function factsAfterRewrite(first: BriefCheck, rewrite: BriefCheck, spoken: string): CriticalFact[] {
  const kept = new Set(rewrite.facts.map((fact) => factKey(fact.fact)));
  const dropped = first.facts
    .filter((fact) => !kept.has(factKey(fact.fact)))
    .filter((fact) => !fact.covered || missingNumbers(fact.fact, spoken).length > 0)
    .map((fact) => ({ fact: fact.fact, covered: false }));
  return [...rewrite.facts, ...dropped];
}

function generatedBrief(options: {
  draft: BriefDraft;
  facts: CriticalFact[];
  supplementary: SupplementaryParagraph | null;
  llmCalls: number;
  channel: LlmChannel;
  language: string;
  reportCut: ReportCut | null;
}): Brief {
  const { draft } = options;
  const brief: Brief = {
    title: draft.title,
    spoken: draft.spoken,
    cards: draft.cards,
    openQuestions: draft.openQuestions,
    criticalFacts: options.facts,
    supplementary: options.supplementary,
    meta: {
      status: "generated",
      llmCalls: options.llmCalls,
      model: options.channel.model,
      language: options.language,
      error: null,
      generatedAt: new Date().toISOString(),
      ...(options.reportCut ? { reportCut: options.reportCut } : {}),
    },
  };
  // The model's server holds the key; whatever it answers, the key does not travel on in a brief.
  return redactDeep(brief, options.channel.apiKey);
}

/**
 * The brief of one report (spec: Brief generation, Limits). One structured call; when a critical fact is
 * uncovered or the spoken part is too long, exactly one rewrite; facts still uncovered become the
 * supplementary paragraph. Never throws: every failure gives a `failed` brief. Only an abort through
 * `signal` rejects, with the signal's reason.
 */
export async function generateBrief(options: GenerateBriefOptions): Promise<Brief> {
  const { report, channel, language, signal } = options;
  signal?.throwIfAborted();
  if (channel === null) {
    return failedBrief({ report, language, llmCalls: 0, model: null, error: NO_LANGUAGE_MODEL_ERROR });
  }
  const fail = (llmCalls: number, error: string) =>
    failedBrief({ report, language, llmCalls, model: channel.model, error });
  const { given, maxTokens } = briefPlan(report, channel, language);
  const call = { channel, signal, fetch: options.fetch, maxTokens };
  const reportCut = given.isCut
    ? { originalChars: given.originalChars, briefedChars: characterCount(given.text) }
    : null;

  const first = await callModel({
    ...call,
    messages: briefMessages({ report, given, language, channel, jsonSchema: cachedBriefJsonSchema() }),
    schema: BriefDraft,
    jsonSchema: cachedBriefJsonSchema(),
  });
  if (!first.ok) return fail(1, first.error);
  // The checks read what the model was given: a fact of a part left out cannot be asked of it.
  const firstCheck = checkBrief(given.text, first.value);
  if (firstCheck.passed) {
    return generatedBrief({
      draft: first.value,
      facts: firstCheck.facts,
      supplementary: null,
      llmCalls: 1,
      channel,
      language,
      reportCut,
    });
  }

  // In json_object mode the schema travels in the system prompt, so the rewrite's prompt names its own schema.
  const rewrite = await callModel({
    ...call,
    messages: rewriteMessages({
      firstMessages: briefMessages({
        report,
        given,
        language,
        channel,
        jsonSchema: cachedBriefRewriteJsonSchema(),
      }),
      draft: first.value,
      check: firstCheck,
      language,
    }),
    schema: BriefRewriteDraft,
    jsonSchema: cachedBriefRewriteJsonSchema(),
  });
  if (!rewrite.ok) return fail(2, `The rewrite failed. ${rewrite.error}`);
  const { supplementaryHeading, ...draft } = rewrite.value;
  const facts = factsAfterRewrite(firstCheck, checkBrief(given.text, draft), draft.spoken);
  return generatedBrief({
    draft,
    facts,
    supplementary: supplementaryParagraph(
      facts.filter((fact) => !fact.covered),
      supplementaryHeading,
    ),
    llmCalls: 2,
    channel,
    language,
    reportCut,
  });
}
