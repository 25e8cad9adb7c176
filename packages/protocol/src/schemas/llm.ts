import { z } from "zod";
import { ModelCallLimitMs, ModelOutputTokens } from "../model-endpoint.js";

export const StructuredOutput = z.enum(["json_schema", "json_object"]);
export type StructuredOutput = z.infer<typeof StructuredOutput>;

const httpUrl = z
  .string()
  .trim()
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === "http:" || url.protocol === "https:";
    } catch {
      return false;
    }
  }, "must be an http(s) address");

/** The language-model channel as stored in daemon.json (`llm.primary`), key included. */
export const LlmChannel = z.object({
  baseUrl: httpUrl,
  apiKey: z.string().min(1),
  model: z.string().trim().min(1),
  structuredOutput: StructuredOutput.default("json_schema"),
  /** The overall cap of one call; without it the endpoint kind's default (`modelCallLimits`). */
  timeoutMs: z.number().int().positive().optional(),
  /** The longest wait for the next token once answering has started; without it the endpoint kind's default. */
  noProgressTimeoutMs: z.number().int().positive().optional(),
  /** The output cap (`max_tokens`) of every brief call; without it the endpoint kind's default (`ModelOutputTokens`). */
  maxOutputTokens: ModelOutputTokens.optional(),
  /** Manual configuration only; sent to the model only when present. */
  reasoningEffort: z.string().min(1).optional(),
});
export type LlmChannel = z.infer<typeof LlmChannel>;

/**
 * `{baseUrl}/chat/completions`, whether or not baseUrl ends in `/`; a query string is kept. The address of every
 * OpenAI-compatible call: the computer's briefs and the device's in-call answers.
 */
export function chatCompletionsUrl(baseUrl: string): URL {
  const url = new URL(baseUrl);
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/chat/completions`;
  return url;
}

/** The channel as returned: never the key, only its hint. */
export const LlmChannelPublic = z.object({
  baseUrl: z.string(),
  model: z.string(),
  keyHint: z.string(),
  structuredOutput: StructuredOutput,
  /** The limits set for this channel; absent: the endpoint kind's default (`modelCallLimits`). */
  timeoutMs: z.number().int().positive().optional(),
  noProgressTimeoutMs: z.number().int().positive().optional(),
  /** The output cap set for this channel; absent: the endpoint kind's default. */
  maxOutputTokens: z.number().int().positive().optional(),
});
export type LlmChannelPublic = z.infer<typeof LlmChannelPublic>;

/** `PUT /llm/settings` body. Without apiKey the saved key is kept. */
export const PutLlmSettingsRequest = z.object({
  baseUrl: httpUrl,
  apiKey: z.string().min(1).optional(),
  model: z.string().trim().min(1),
  structuredOutput: StructuredOutput.optional(),
  /** Absent: the saved limit is kept (whatever the address and model); null: back to the default. */
  timeoutMs: ModelCallLimitMs.nullable().optional(),
  noProgressTimeoutMs: ModelCallLimitMs.nullable().optional(),
  /** The output cap, kept, set or reset (null) like the limits. */
  maxOutputTokens: ModelOutputTokens.nullable().optional(),
});
export type PutLlmSettingsRequest = z.infer<typeof PutLlmSettingsRequest>;

/** `GET`, `PUT` and `DELETE /llm/settings` response. */
export const LlmSettingsResponse = z.object({ channel: LlmChannelPublic.nullable() });
export type LlmSettingsResponse = z.infer<typeof LlmSettingsResponse>;

/** The masked hint for a secret: its last four characters at most, never more than a quarter of it. */
export function secretHint(secret: string): string {
  const shown = Math.min(4, Math.floor(secret.length / 4));
  return shown === 0 ? "****" : `****${secret.slice(-shown)}`;
}
