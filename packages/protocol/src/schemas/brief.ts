import { z } from "zod";
import { BRIEF_REWRITES_MAX } from "../limits.js";

/*
 * The descriptions below are sent to the language model inside the JSON schema of the structured call,
 * so they are written for the model and stay language-neutral (the prompt names the brief language).
 */

/** A card: one topic of the report the user can jump to during the call. */
export const BriefCard = z.object({
  title: z.string().describe("A few words naming the topic."),
  body: z.string().describe("What the report says about it, as plain sentences that can be read aloud."),
});
export type BriefCard = z.infer<typeof BriefCard>;

/**
 * A fact the user must hear, and whether the spoken part covers it. In a generated `Brief`, `covered` is the
 * checked value: the model's claim, confirmed by the numbers of the fact appearing in the spoken part.
 */
export const CriticalFact = z.object({
  fact: z
    .string()
    .describe("One short sentence as it should be heard: a failure, a number, a decision needed or a risk."),
  covered: z.boolean().describe("True when the spoken paragraph states this fact."),
});
export type CriticalFact = z.infer<typeof CriticalFact>;

/** What the language model returns (the structured output schema). */
export const BriefDraft = z.object({
  title: z.string().describe("A short title for the call."),
  spoken: z
    .string()
    .describe("The paragraph read aloud when the call is answered: plain prose, no markdown, no code."),
  cards: z.array(BriefCard).describe("The topics of the report, in the order of the report."),
  openQuestions: z
    .array(z.string())
    .describe("Questions the report asks the user or decisions it leaves to the user; empty when none."),
  criticalFacts: z.array(CriticalFact).describe("Every critical fact of the report; empty when none."),
});
export type BriefDraft = z.infer<typeof BriefDraft>;

/** Facts still uncovered after the rewrite, read aloud after the spoken paragraph. */
export const SupplementaryParagraph = z.object({
  /** Written in the brief language by the model. */
  heading: z.string(),
  /** The uncovered facts, one sentence each. */
  text: z.string(),
});
export type SupplementaryParagraph = z.infer<typeof SupplementaryParagraph>;

export const BriefStatus = z.enum(["generated", "failed"]);
export type BriefStatus = z.infer<typeof BriefStatus>;

/** How much of a long report the model was given (the rest was left out by the stated rule, `@ringback/brief`). */
export const ReportCut = z.object({
  /** Characters (code points) of the report as the agent wrote it. */
  originalChars: z.number().int().nonnegative(),
  /** Characters of what the model was given, the marks of what was left out included. */
  briefedChars: z.number().int().nonnegative(),
});
export type ReportCut = z.infer<typeof ReportCut>;

export const BriefMeta = z.object({
  status: BriefStatus,
  /** Model calls made for this brief: 0 with no model, 1, or 2 after a rewrite. */
  llmCalls: z
    .number()
    .int()
    .nonnegative()
    .max(1 + BRIEF_REWRITES_MAX),
  /** The configured model; null when none is configured. */
  model: z.string().nullable(),
  /** The brief language (BCP 47). */
  language: z.string(),
  /** Why the brief failed; null when generated; never contains a key. */
  error: z.string().nullable(),
  /** When the brief was finished (ISO 8601). */
  generatedAt: z.iso.datetime({ offset: true }),
  /** Present when the report was too long for the model and was cut before it was briefed. */
  reportCut: ReportCut.optional(),
});
export type BriefMeta = z.infer<typeof BriefMeta>;

/**
 * The brief sealed with the report. A `failed` brief has an empty spoken part and no cards: the client
 * reads the report's original text aloud instead.
 */
export const Brief = BriefDraft.extend({
  supplementary: SupplementaryParagraph.nullable(),
  meta: BriefMeta,
});
export type Brief = z.infer<typeof Brief>;

/** The placeholder the model may use for the user's form of address; the client replaces it. */
export const FORM_OF_ADDRESS_PLACEHOLDER = "{{address}}";

/** The error of a brief when no language model is configured (the spec's wording). */
export const NO_LANGUAGE_MODEL_ERROR = "No language model is configured on this computer.";

/**
 * A generated brief of just the words given (no open questions, facts or extra paragraph): the brief of a call said
 * in words without a model, or the one a test seals. `meta` says what wrote it; it is generated, with no error.
 */
export function generatedBrief(
  words: { title: string; spoken: string; cards: BriefCard[] },
  meta: Omit<BriefMeta, "status" | "error">,
): Brief {
  return {
    ...words,
    openQuestions: [],
    criticalFacts: [],
    supplementary: null,
    meta: { status: "generated", error: null, ...meta },
  };
}
