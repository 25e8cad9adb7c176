import { testConnection } from "@ringback/brief";
import type { LlmChannel, LlmTestResponse } from "@ringback/protocol";
import { modelFetch } from "./model-fetch/model-fetch.js";
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
  const result = await slots.run(channel.baseUrl, undefined, () =>
    testConnection({ channel, language, fetch: modelFetch }),
  );
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
  return {
    ok: false,
    error: { code: "llm_call_failed", message },
    latencyMs: Math.round(result.stats.totalMs),
  };
}

/** What a device asking through the relay is told of a failed test, whatever the address answered. */
export const RELAYED_LLM_TEST_FAILURE =
  "The language model did not answer with a brief. Why is said only on the computer (ringback model test, or the daemon's log).";

/**
 * A connection test as a device asking through the relay sees it: whether it worked and how long it took (with the
 * speeds measured), never a word of what the address answered. The test can POST to any address the computer
 * reaches (its own network included), so the answer's text goes no further than the computer.
 */
export function relayedLlmTestAnswer(result: LlmTestResponse, channel: LlmChannel): LlmTestResponse {
  if (result.ok) return { ...result, model: channel.model };
  return {
    ok: false,
    error: { code: "llm_call_failed", message: RELAYED_LLM_TEST_FAILURE },
    ...(result.latencyMs === undefined ? {} : { latencyMs: result.latencyMs }),
  };
}
