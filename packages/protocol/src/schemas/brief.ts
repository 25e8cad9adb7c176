import { z } from "zod";

/** A card: one topic of the report the user can jump to during the call. */
export const BriefCard = z.object({
  title: z.string(),
  body: z.string(),
});
export type BriefCard = z.infer<typeof BriefCard>;

/** A fact the user must hear, and whether the spoken part covers it. */
export const CriticalFact = z.object({
  fact: z.string(),
  covered: z.boolean(),
});
export type CriticalFact = z.infer<typeof CriticalFact>;

/** What the language model returns (the structured output schema). */
export const BriefDraft = z.object({
  title: z.string(),
  spoken: z.string(),
  cards: z.array(BriefCard),
  openQuestions: z.array(z.string()),
  criticalFacts: z.array(CriticalFact),
});
export type BriefDraft = z.infer<typeof BriefDraft>;

/** Facts still uncovered after the rewrite, read aloud after the spoken paragraph. */
export const SupplementaryParagraph = z.object({
  heading: z.string(),
  text: z.string(),
});
export type SupplementaryParagraph = z.infer<typeof SupplementaryParagraph>;

export const BriefStatus = z.enum(["generated", "failed"]);
export type BriefStatus = z.infer<typeof BriefStatus>;

export const BriefMeta = z.object({
  status: BriefStatus,
  /** Model calls made for this brief: 0 with no model, 1, or 2 after a rewrite. */
  llmCalls: z.number().int().nonnegative(),
  model: z.string().nullable(),
  /** The brief language (BCP 47). */
  language: z.string(),
  /** Why the brief failed; never contains a key. */
  error: z.string().nullable(),
  generatedAt: z.string(),
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
