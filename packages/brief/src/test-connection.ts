import { BriefDraft, type LlmChannel, type Report } from "@ringback/protocol";
import { briefPlan } from "./brief-budget.js";
import { cachedBriefJsonSchema } from "./brief-schema.js";
import { callModel, type ModelCallStep } from "./call-model.js";
import type { ModelCallStats } from "./call-stats.js";
import { type ConnectionTiming, connectionTiming } from "./connection-estimate.js";
import { briefMessages } from "./prompt.js";

/** The tiny fixed report of a connection test. */
export const CONNECTION_TEST_REPORT: Report = {
  eventId: "connection-test",
  source: "claude-code",
  occurredAt: "2025-01-01T00:00:00.000Z",
  text: "Fixed the login bug: the session cookie is renewed on every request. All 42 tests pass.",
};

/** The language of a connection test's brief when none is given. */
export const CONNECTION_TEST_LANGUAGE = "en-US";

export interface ConnectionTestResult {
  ok: boolean;
  /** Why the call failed; never contains the key. */
  error?: string;
  model: string;
  /** What the call measured: tokens, and the times to the first and the last token. */
  stats: ModelCallStats;
  /** When the model answered: its speeds and how long a typical and a long report's brief would take. */
  timing?: ConnectionTiming;
}

/**
 * Makes the same structured call as a brief generation on a tiny fixed report (spec: "Connection test uses
 * the same structured-output call as brief generation"), with the same limits and output limit, and measures
 * the model's speeds: how fast it reads a prompt and writes, and so how long a typical (30 lines) and a long
 * (350 lines) report's brief would take against the overall limit. Resolves, never rejects, except on abort.
 */
export async function testConnection(options: {
  channel: LlmChannel;
  fetch?: typeof fetch;
  signal?: AbortSignal;
  language?: string;
  /** How far the call got, step by step (`callModel`'s). */
  onProgress?: (step: ModelCallStep) => void;
}): Promise<ConnectionTestResult> {
  const { channel } = options;
  const language = options.language ?? CONNECTION_TEST_LANGUAGE;
  const jsonSchema = cachedBriefJsonSchema();
  const { given, maxTokens } = briefPlan(CONNECTION_TEST_REPORT, channel, language);
  const result = await callModel({
    channel,
    messages: briefMessages({ report: CONNECTION_TEST_REPORT, given, language, channel, jsonSchema }),
    schema: BriefDraft,
    jsonSchema,
    maxTokens,
    signal: options.signal,
    fetch: options.fetch,
    onProgress: options.onProgress,
  });
  return result.ok
    ? {
        ok: true,
        model: channel.model,
        stats: result.stats,
        timing: connectionTiming(channel, result.stats, language),
      }
    : { ok: false, error: result.error, model: channel.model, stats: result.stats };
}
