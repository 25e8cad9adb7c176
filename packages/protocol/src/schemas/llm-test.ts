import { z } from "zod";
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

/** `POST /llm/test` response (always 200 once the channel is valid): the model worked, or why it did not. */
export const LlmTestResponse = z.discriminatedUnion("ok", [
  z.object({
    ok: z.literal(true),
    model: z.string(),
    /** From sending the call to the checked answer. */
    latencyMs: z.number().int().nonnegative(),
  }),
  z.object({
    ok: z.literal(false),
    error: z.object({ code: LlmTestFailureCode, message: z.string() }),
  }),
]);
export type LlmTestResponse = z.infer<typeof LlmTestResponse>;
