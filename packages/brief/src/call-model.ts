import { chatCompletionsUrl, type LlmChannel, modelCallLimits } from "@ringback/protocol";
import type { z } from "zod";
import type { JsonSchema } from "./brief-schema.js";
import { CallLimits, raceAbort } from "./call-limits.js";
import { CallMeasurements } from "./call-measurements.js";
import { type ModelCallStats, timeLimitError } from "./call-stats.js";
import { errorDetail, type ModelCallFailure } from "./model-answer.js";
import { parseStructuredAnswer } from "./parse-answer.js";
import type { ChatMessage } from "./prompt.js";
import { type ReadAnswer, readAnswer } from "./read-answer.js";
import { redactSecret } from "./redact.js";
import { estimatePromptTokens } from "./token-estimate.js";

/** The `response_format.json_schema.name` of every brief call. */
export const BRIEF_SCHEMA_NAME = "brief";

export type { ModelCallFailure } from "./model-answer.js";

export type ModelCallResult<T> =
  | { ok: true; value: T; stats: ModelCallStats }
  | { ok: false; error: string; failure: ModelCallFailure; stats: ModelCallStats };

/** How far a call got: the server answered the request (`connected`), then its first token came (`first-token`). */
export type ModelCallStep = "connected" | "first-token";

export interface ModelCallOptions<T> {
  channel: LlmChannel;
  messages: ChatMessage[];
  /** Validates the answer. */
  schema: z.ZodType<T>;
  /** Sent as `response_format.json_schema.schema` (json_schema mode). */
  jsonSchema: JsonSchema;
  /** Sent as `max_tokens`; none is sent when undefined. */
  maxTokens?: number | undefined;
  signal?: AbortSignal | undefined;
  fetch?: typeof fetch | undefined;
  /** The clock of the measurements, in milliseconds (default `performance.now`). */
  now?: (() => number) | undefined;
  /** Told each step once, as it happens (a server that does not stream has no first token to tell). */
  onProgress?: ((step: ModelCallStep) => void) | undefined;
}

/** The address named in errors: no credentials, no query string (either may carry a secret). */
function displayAddress(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

function requestBody(options: ModelCallOptions<unknown>) {
  const { channel } = options;
  const responseFormat =
    channel.structuredOutput === "json_object"
      ? { type: "json_object" }
      : {
          type: "json_schema",
          json_schema: { name: BRIEF_SCHEMA_NAME, strict: true, schema: options.jsonSchema },
        };
  return {
    model: channel.model,
    messages: options.messages,
    response_format: responseFormat,
    stream: true,
    stream_options: { include_usage: true },
    ...(options.maxTokens === undefined ? {} : { max_tokens: options.maxTokens }),
    ...(channel.reasoningEffort === undefined ? {} : { reasoning_effort: channel.reasoningEffort }),
  };
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: unknown })?.cause;
  const source = cause instanceof Error ? cause : error;
  return source instanceof Error ? source.message : String(source);
}

/**
 * One structured, streamed call to `{baseUrl}/chat/completions` within the channel's limits (the overall cap
 * and the no-progress limit, `modelCallLimits`); the clock starts when the request is sent. Giving up aborts
 * the request, which closes its connection. Never throws, except with the caller's abort reason; every error
 * is redacted of the key.
 */
export async function callModel<T>(options: ModelCallOptions<T>): Promise<ModelCallResult<T>> {
  const { channel, signal } = options;
  const measured = new CallMeasurements(
    options.now ?? (() => performance.now()),
    estimatePromptTokens(options.messages),
  );
  const fail = (error: string, failure: ModelCallFailure = "other"): ModelCallResult<T> => ({
    ok: false,
    error: redactSecret(error, channel.apiKey),
    failure,
    stats: measured.stats(),
  });
  let url: URL;
  try {
    url = chatCompletionsUrl(channel.baseUrl);
  } catch {
    return fail("The language model's address is not a valid URL.");
  }
  signal?.throwIfAborted();

  measured.start();
  const limits = new CallLimits(modelCallLimits(channel));
  const combined = signal ? AbortSignal.any([signal, limits.controller.signal]) : limits.controller.signal;
  const onToken = () => {
    const isFirst = !measured.hasToken;
    measured.tokenArrived();
    if (isFirst) options.onProgress?.("first-token");
    limits.tokenArrived();
  };
  let outcome: Exchange;
  try {
    outcome = await raceAbort(exchange(url, options, { signal: combined, onToken }), combined);
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (limits.expired === null) {
      return fail(`Could not reach the language model at ${displayAddress(url)}: ${causeOf(error)}`);
    }
    const limit = limits.expired;
    return fail(
      timeLimitError({
        limit,
        limits: limits.limits,
        stats: measured.stats(),
        outputTokens: options.maxTokens,
      }),
      "time",
    );
  } finally {
    limits.clear();
  }
  if (outcome.kind === "http_error") {
    const detail = errorDetail(outcome.text);
    return fail(`The language model answered HTTP ${outcome.status}${detail ? `: ${detail}` : "."}`);
  }
  const { answer } = outcome;
  measured.usage = answer.usage;
  if (!answer.content.ok) return fail(answer.content.error, answer.content.failure);
  const parsed = parseStructuredAnswer(answer.content.value, options.schema);
  return parsed.ok ? { ...parsed, stats: measured.stats() } : fail(parsed.error);
}

/** The model's answer, or the status and body of a request it refused. */
type Exchange = { kind: "answer"; answer: ReadAnswer } | { kind: "http_error"; status: number; text: string };

/** Posts the chat request to `url` and reads the answer as it streams (`onToken` at each token). */
async function exchange(
  url: URL,
  options: ModelCallOptions<unknown>,
  call: { signal: AbortSignal; onToken: () => void },
): Promise<Exchange> {
  const fetchImplementation = options.fetch ?? globalThis.fetch;
  const response = await fetchImplementation(url, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "text/event-stream, application/json",
      authorization: `Bearer ${options.channel.apiKey}`,
    },
    body: JSON.stringify(requestBody(options)),
    signal: call.signal,
  });
  if (response.status < 200 || response.status > 299) {
    return { kind: "http_error", status: response.status, text: await response.text() };
  }
  options.onProgress?.("connected");
  return {
    kind: "answer",
    answer: await readAnswer(response, { maxTokens: options.maxTokens, onToken: call.onToken }),
  };
}
