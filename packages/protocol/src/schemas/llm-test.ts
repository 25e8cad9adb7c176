import { z } from "zod";
import { ModelEndpointKind } from "../model-endpoint.js";
import { PutLlmSettingsRequest } from "./llm.js";

/**
 * `POST /llm/test` body: a channel as for `PUT /llm/settings` (without apiKey: the saved key), or `{}` (or no
 * body) for the saved channel. Nothing is saved.
 */
export const LlmTestRequest = z.union([PutLlmSettingsRequest, z.object({}).strict()]);
export type LlmTestRequest = z.infer<typeof LlmTestRequest>;

/**
 * Why a connection test failed, when the request itself was fine. One code for now: the message (from
 * `@ringback/brief`, never with the key) says whether the model timed out, refused the key or answered badly.
 */
export const LlmTestFailureCode = z.enum(["llm_call_failed"]);
export type LlmTestFailureCode = z.infer<typeof LlmTestFailureCode>;

/** How long one sample report's brief would take at the speeds a connection test measured. */
export const BriefTimeEstimate = z.object({
  report: z.enum(["typical", "long"]),
  /** About this many lines of an agent's reply. */
  lines: z.number().int().positive(),
  promptTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  /** One call at the measured speeds; null when a speed could not be measured. */
  ms: z.number().int().nonnegative().nullable(),
  /** Whether that fits the overall limit (with a margin); null when unknown. */
  fitsTimeout: z.boolean().nullable(),
});
export type BriefTimeEstimate = z.infer<typeof BriefTimeEstimate>;

/** What a connection test measured and what follows for real reports. */
export const LlmTestTiming = z.object({
  endpoint: ModelEndpointKind,
  timeoutMs: z.number().int().positive(),
  noProgressTimeoutMs: z.number().int().positive(),
  promptTokensPerSecond: z.number().nonnegative().nullable(),
  outputTokensPerSecond: z.number().nonnegative().nullable(),
  estimates: z.array(BriefTimeEstimate),
  /** What to change when a sample report will not fit the limits; null when both fit. */
  advice: z.string().nullable(),
});
export type LlmTestTiming = z.infer<typeof LlmTestTiming>;

/** `POST /llm/test` response (always 200 once the channel is valid): the model worked, or why it did not. */
export const LlmTestResponse = z.discriminatedUnion("ok", [
  z.object({
    ok: z.literal(true),
    model: z.string(),
    /** From sending the call to the checked answer. */
    latencyMs: z.number().int().nonnegative(),
    /** Absent from a daemon that does not measure it. */
    timing: LlmTestTiming.optional(),
  }),
  z.object({
    ok: z.literal(false),
    error: z.object({ code: LlmTestFailureCode, message: z.string() }),
    /** From sending the call to its failure; absent from a daemon that does not measure it. */
    latencyMs: z.number().int().nonnegative().optional(),
  }),
]);
export type LlmTestResponse = z.infer<typeof LlmTestResponse>;

/**
 * How far the computer's latest model test got: waiting for a brief in progress on the same model, sent, the
 * server answered (`connected`), its first token came, or `done` (its verdict is the test's own answer).
 */
export const LlmTestStep = z.enum(["waiting-for-slot", "sent", "connected", "first-token", "done"]);
export type LlmTestStep = z.infer<typeof LlmTestStep>;

/**
 * `GET /local/llm-test-progress` (local only: what a relayed device must not learn, how long an address took to
 * answer, stays on the computer): the latest test's step and the time since it began; `step` null before any test.
 */
export const LlmTestProgress = z.object({
  step: LlmTestStep.nullable(),
  elapsedMs: z.number().int().nonnegative(),
});
export type LlmTestProgress = z.infer<typeof LlmTestProgress>;
