import { testConnection } from "@ringback/brief";
import type { LlmChannel, LlmTestResponse } from "@ringback/protocol";

/**
 * Runs `@ringback/brief`'s connection test (the same structured call as a brief, with the channel's timeout)
 * and times it. The channel's timeout bounds it. A model that fails is an answer, not an error: the request itself succeeded.
 */
export async function runLlmTest(channel: LlmChannel): Promise<LlmTestResponse> {
  const startedAt = performance.now();
  const result = await testConnection({ channel });
  if (result.ok) {
    return { ok: true, model: result.model, latencyMs: Math.round(performance.now() - startedAt) };
  }
  // testConnection's error never carries the key (redacted in @ringback/brief).
  const message = result.error ?? "The language model did not answer with a brief.";
  return { ok: false, error: { code: "llm_call_failed", message } };
}
