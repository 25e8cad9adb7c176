import { testConnection } from "@ringback/brief";
import type { LlmChannel, LlmTestResponse } from "@ringback/protocol";
import type { ModelSlots } from "./model-slots.js";

/**
 * Runs `@ringback/brief`'s connection test (the same structured call as a brief, with the channel's limits) once
 * the endpoint has a free slot (a brief in progress on a local model would otherwise slow it down and skew what it
 * measures), and times it. A model that fails is an answer, not an error: the request itself succeeded.
 */
export async function runLlmTest(
  channel: LlmChannel,
  slots: ModelSlots,
  language: string,
): Promise<LlmTestResponse> {
  const result = await slots.run(channel.baseUrl, undefined, () => testConnection({ channel, language }));
  if (result.ok) {
    return {
      ok: true,
      model: result.model,
      latencyMs: Math.round(result.stats.totalMs),
      ...(result.timing ? { timing: result.timing } : {}),
    };
  }
  // testConnection's error never carries the key (redacted in @ringback/brief).
  const message = result.error ?? "The language model did not answer with a brief.";
  return { ok: false, error: { code: "llm_call_failed", message } };
}
