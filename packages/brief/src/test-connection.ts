import { BriefDraft, type LlmChannel, type Report } from "@ringback/protocol";
import { cachedBriefJsonSchema } from "./brief-schema.js";
import { callModel } from "./call-model.js";
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
}

/**
 * Makes the same structured call as a brief generation on a tiny fixed report (spec: "Connection test uses
 * the same structured-output call as brief generation"). Resolves, never rejects, except on abort.
 */
export async function testConnection(options: {
  channel: LlmChannel;
  fetch?: typeof fetch;
  signal?: AbortSignal;
  language?: string;
}): Promise<ConnectionTestResult> {
  const { channel } = options;
  const jsonSchema = cachedBriefJsonSchema();
  const result = await callModel({
    channel,
    messages: briefMessages({
      report: CONNECTION_TEST_REPORT,
      language: options.language ?? CONNECTION_TEST_LANGUAGE,
      channel,
      jsonSchema,
    }),
    schema: BriefDraft,
    jsonSchema,
    signal: options.signal,
    fetch: options.fetch,
  });
  return result.ok
    ? { ok: true, model: channel.model }
    : { ok: false, error: result.error, model: channel.model };
}
