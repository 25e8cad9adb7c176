import { setTimeout as sleep } from "node:timers/promises";
import { testConnection } from "@ringback/brief";
import type { LlmChannel, LlmTestResponse } from "@ringback/protocol";
import { modelFetch } from "./model-fetch/model-fetch.js";
import type { ModelSlots } from "./model-slots.js";
import type { ModelTestProgress } from "./model-test/test-progress.js";

/**
 * The least time a failed test takes to answer. A closed port fails in a millisecond, an open one that is not a
 * model in a few, a filtered one at the time limit: answered no sooner than this, a failure does not tell which.
 */
export const LLM_TEST_FAILURE_MIN_MS = 2_000;

/**
 * Runs `@ringback/brief`'s connection test (the same structured call as a brief, with the channel's limits) once
 * the endpoint has a free slot (a brief in progress on a local model would otherwise slow it down and skew what it
 * measures), and times it. A model that fails is an answer, not an error: the request itself succeeded; it comes no
 * sooner than `LLM_TEST_FAILURE_MIN_MS` after the test began.
 */
export async function runLlmTest(
  channel: LlmChannel,
  slots: ModelSlots,
  language: string,
  progress?: ModelTestProgress,
): Promise<LlmTestResponse> {
  const startedAt = performance.now();
  progress?.started();
  const result = await slots
    .run(channel.baseUrl, undefined, () => {
      progress?.reached("sent");
      return testConnection({
        channel,
        language,
        fetch: modelFetch,
        onProgress: (step) => progress?.reached(step),
      });
    })
    .finally(() => progress?.reached("done"));
  if (!result.ok) await sleep(Math.max(0, startedAt + LLM_TEST_FAILURE_MIN_MS - performance.now()));
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
 * speeds measured), never a word of what the address answered, nor how long a failure took (a refused port fails
 * sooner than a filtered one). The test can POST to any address the computer reaches (its own network included),
 * so the answer's text goes no further than the computer, and every failure looks the same.
 */
export function relayedLlmTestAnswer(result: LlmTestResponse, channel: LlmChannel): LlmTestResponse {
  if (result.ok) return { ...result, model: channel.model };
  return { ok: false, error: { code: "llm_call_failed", message: RELAYED_LLM_TEST_FAILURE } };
}
