import {
  chatCompletionsUrl,
  type LlmChannel,
  type ModelCallLimits,
  modelCallLimits,
} from "@ringback/protocol";
import type { z } from "zod";
import type { JsonSchema } from "./brief-schema.js";
import { type ModelCallStats, timeLimitError } from "./call-stats.js";
import {
  applyChunk,
  emptyCompletion,
  type StreamedCompletion,
  serverSentDataLines,
} from "./completion-stream.js";
import {
  type ContentResult,
  errorDetail,
  type ModelCallFailure,
  streamedAnswerContent,
  wholeAnswerContent,
} from "./model-answer.js";
import { parseStructuredAnswer } from "./parse-answer.js";
import type { ChatMessage } from "./prompt.js";
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

/** Settles with `work`, or rejects with the signal's reason as soon as it aborts (even if `work` ignores it). */
async function raceAbort<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  signal.throwIfAborted();
  let onAbort = () => {};
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

/**
 * The two limits of one call, on the global timers (so tests drive them with fake timers). The overall cap runs
 * from sending the request; the no-progress limit from the first token, restarted by every token: reading the
 * prompt streams nothing, and its time grows with the report.
 */
class CallLimits {
  readonly controller = new AbortController();
  expired: "overall" | "no_progress" | null = null;
  #overall: ReturnType<typeof setTimeout>;
  #noProgress: ReturnType<typeof setTimeout> | undefined;

  constructor(readonly limits: ModelCallLimits) {
    this.#overall = setTimeout(() => this.#expire("overall"), limits.timeoutMs);
  }

  tokenArrived(): void {
    clearTimeout(this.#noProgress);
    this.#noProgress = setTimeout(() => this.#expire("no_progress"), this.limits.noProgressTimeoutMs);
  }

  clear(): void {
    clearTimeout(this.#overall);
    clearTimeout(this.#noProgress);
  }

  #expire(limit: "overall" | "no_progress"): void {
    this.expired ??= limit;
    this.clear();
    this.controller.abort(new Error(`the ${limit} limit expired`));
  }
}

interface ReadAnswer {
  content: ContentResult;
  usage: StreamedCompletion["usage"];
}

/** Reads the response: server-sent events chunk by chunk, or a whole body from a server that does not stream. */
async function readAnswer(
  response: Response,
  options: { maxTokens: number | undefined; onToken: () => void },
): Promise<ReadAnswer> {
  const isEventStream = (response.headers.get("content-type") ?? "").includes("text/event-stream");
  if (!isEventStream || response.body === null) {
    const text = await response.text();
    return { content: wholeAnswerContent(text, options.maxTokens), usage: null };
  }
  const completion = emptyCompletion();
  const lines = serverSentDataLines();
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  const take = (data: string[]) => {
    for (const payload of data) if (applyChunk(completion, payload)) options.onToken();
  };
  try {
    while (!completion.isDone && completion.error === null) {
      const { done, value } = await reader.read();
      if (done) break;
      take(lines.push(decoder.decode(value, { stream: true })));
    }
    take(lines.end());
  } finally {
    // Closing the body closes the connection, so the server stops working on an answer no one reads.
    await reader.cancel().catch(() => undefined);
  }
  return {
    content: streamedAnswerContent(completion, options.maxTokens),
    usage: completion.usage,
  };
}

/**
 * One structured, streamed call to `{baseUrl}/chat/completions` within the channel's limits (the overall cap
 * and the no-progress limit, `modelCallLimits`); the clock starts when the request is sent. Giving up aborts
 * the request, which closes its connection. Never throws, except with the caller's abort reason; every error
 * is redacted of the key.
 */
export async function callModel<T>(options: ModelCallOptions<T>): Promise<ModelCallResult<T>> {
  const { channel, signal } = options;
  const fetchImplementation = options.fetch ?? globalThis.fetch;
  const now = options.now ?? (() => performance.now());
  const estimatedPromptTokens = estimatePromptTokens(options.messages);
  let firstTokenAt: number | null = null;
  let lastTokenAt: number | null = null;
  let streamedTokens = 0;
  let usage: StreamedCompletion["usage"] = null;
  let startedAt = now();
  const stats = (): ModelCallStats => ({
    promptTokens: usage?.promptTokens ?? estimatedPromptTokens,
    isPromptCounted: typeof usage?.promptTokens === "number",
    outputTokens: usage?.outputTokens ?? streamedTokens,
    firstTokenMs: firstTokenAt === null ? null : firstTokenAt - startedAt,
    lastTokenMs: lastTokenAt === null ? null : lastTokenAt - startedAt,
    totalMs: now() - startedAt,
  });
  const fail = (error: string, failure: ModelCallFailure = "other"): ModelCallResult<T> => ({
    ok: false,
    error: redactSecret(error, channel.apiKey),
    failure,
    stats: stats(),
  });
  let url: URL;
  try {
    url = chatCompletionsUrl(channel.baseUrl);
  } catch {
    return fail("The language model's address is not a valid URL.");
  }
  signal?.throwIfAborted();

  startedAt = now();
  const limits = new CallLimits(modelCallLimits(channel));
  const combined = signal ? AbortSignal.any([signal, limits.controller.signal]) : limits.controller.signal;
  const onToken = () => {
    lastTokenAt = now();
    if (firstTokenAt === null) options.onProgress?.("first-token");
    firstTokenAt ??= lastTokenAt;
    streamedTokens++;
    limits.tokenArrived();
  };
  let outcome: { kind: "answer"; answer: ReadAnswer } | { kind: "http_error"; status: number; text: string };
  try {
    const exchange = (async (): Promise<typeof outcome> => {
      const response = await fetchImplementation(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "text/event-stream, application/json",
          authorization: `Bearer ${channel.apiKey}`,
        },
        body: JSON.stringify(requestBody(options)),
        signal: combined,
      });
      if (response.status < 200 || response.status > 299) {
        return { kind: "http_error", status: response.status, text: await response.text() };
      }
      options.onProgress?.("connected");
      return {
        kind: "answer",
        answer: await readAnswer(response, { maxTokens: options.maxTokens, onToken }),
      };
    })();
    outcome = await raceAbort(exchange, combined);
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (limits.expired !== null) {
      return fail(
        timeLimitError({
          limit: limits.expired,
          limits: limits.limits,
          stats: stats(),
          outputTokens: options.maxTokens,
        }),
        "time",
      );
    }
    return fail(`Could not reach the language model at ${displayAddress(url)}: ${causeOf(error)}`);
  } finally {
    limits.clear();
  }
  if (outcome.kind === "http_error") {
    const detail = errorDetail(outcome.text);
    return fail(`The language model answered HTTP ${outcome.status}${detail ? `: ${detail}` : "."}`);
  }
  const { answer } = outcome;
  usage = answer.usage;
  if (!answer.content.ok) return fail(answer.content.error, answer.content.failure);
  const parsed = parseStructuredAnswer(answer.content.value, options.schema);
  return parsed.ok ? { ...parsed, stats: stats() } : fail(parsed.error);
}
