import { chatCompletionsUrl, type LlmChannel, MODEL_CALL_TIMEOUT_DEFAULT_MS } from "@ringback/protocol";
import type { z } from "zod";
import type { JsonSchema } from "./brief-schema.js";
import { parseStructuredAnswer } from "./parse-answer.js";
import type { ChatMessage } from "./prompt.js";
import { redactSecret } from "./redact.js";

/** The `response_format.json_schema.name` of every brief call. */
export const BRIEF_SCHEMA_NAME = "brief";
/** How much of a server's error message an error quotes. */
const ERROR_DETAIL_MAX_CHARS = 200;

export type ModelCallResult<T> = { ok: true; value: T } | { ok: false; error: string };

export interface ModelCallOptions<T> {
  channel: LlmChannel;
  messages: ChatMessage[];
  /** Validates the answer. */
  schema: z.ZodType<T>;
  /** Sent as `response_format.json_schema.schema` (json_schema mode). */
  jsonSchema: JsonSchema;
  signal?: AbortSignal | undefined;
  fetch?: typeof fetch | undefined;
}

/** The address named in errors: no credentials, no query string (either may carry a secret). */
function displayAddress(url: URL): string {
  return `${url.origin}${url.pathname}`;
}

function requestBody(options: Pick<ModelCallOptions<unknown>, "channel" | "messages" | "jsonSchema">) {
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
    ...(channel.reasoningEffort === undefined ? {} : { reasoning_effort: channel.reasoningEffort }),
  };
}

function truncate(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > ERROR_DETAIL_MAX_CHARS ? `${flat.slice(0, ERROR_DETAIL_MAX_CHARS)}…` : flat;
}

/** The message an OpenAI-style error body carries, or the start of the body. */
function errorDetail(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const message =
      typeof body.error === "string"
        ? body.error
        : typeof body.error?.message === "string"
          ? body.error.message
          : typeof body.message === "string"
            ? body.message
            : undefined;
    if (message) return truncate(message);
  } catch {
    // Not JSON: quote the text itself.
  }
  return truncate(text);
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

/** The assistant message's text from a chat-completion body, or why there is none. */
function assistantContent(text: string): ModelCallResult<string> {
  let body: { choices?: unknown };
  try {
    body = JSON.parse(text) as { choices?: unknown };
  } catch {
    return {
      ok: false,
      error: "The language model's answer is not a chat completion (the body is not JSON).",
    };
  }
  const choice = Array.isArray(body?.choices)
    ? (body.choices[0] as { finish_reason?: unknown; message?: Record<string, unknown> } | undefined)
    : undefined;
  if (!choice) return { ok: false, error: "The language model's answer has no choices." };
  if (choice.finish_reason === "content_filter") {
    return { ok: false, error: "The language model's content filter blocked the brief." };
  }
  const refusal = choice.message?.refusal;
  if (typeof refusal === "string" && refusal.length > 0) {
    return { ok: false, error: `The language model refused: ${truncate(refusal)}` };
  }
  if (choice.finish_reason === "length") {
    return { ok: false, error: "The language model's answer was cut off at its output limit." };
  }
  const content = choice.message?.content;
  if (typeof content === "string") return { ok: true, value: content };
  if (Array.isArray(content)) {
    return {
      ok: true,
      value: content.map((part) => (typeof part?.text === "string" ? part.text : "")).join(""),
    };
  }
  return { ok: false, error: "The language model's answer has no content." };
}

/**
 * One structured call to `{baseUrl}/chat/completions`. Never throws, except with the caller's abort reason;
 * every error is redacted of the key.
 */
export async function callModel<T>(options: ModelCallOptions<T>): Promise<ModelCallResult<T>> {
  const { channel, signal } = options;
  const fetchImplementation = options.fetch ?? globalThis.fetch;
  const fail = (error: string): ModelCallResult<T> => ({
    ok: false,
    error: redactSecret(error, channel.apiKey),
  });
  let url: URL;
  try {
    url = chatCompletionsUrl(channel.baseUrl);
  } catch {
    return fail("The language model's address is not a valid URL.");
  }
  const timeoutMs = channel.timeoutMs ?? MODEL_CALL_TIMEOUT_DEFAULT_MS;
  const timeout = AbortSignal.timeout(timeoutMs);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;

  let status: number;
  let text: string;
  try {
    const exchange = (async () => {
      const response = await fetchImplementation(url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json",
          authorization: `Bearer ${channel.apiKey}`,
        },
        body: JSON.stringify(requestBody(options)),
        signal: combined,
      });
      return { status: response.status, text: await response.text() };
    })();
    ({ status, text } = await raceAbort(exchange, combined));
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (timeout.aborted) return fail(`The language model did not answer within ${timeoutMs} ms.`);
    return fail(`Could not reach the language model at ${displayAddress(url)}: ${causeOf(error)}`);
  }

  if (status < 200 || status > 299) {
    const detail = errorDetail(text);
    return fail(`The language model answered HTTP ${status}${detail ? `: ${detail}` : "."}`);
  }
  const content = assistantContent(text);
  if (!content.ok) return fail(content.error);
  const parsed = parseStructuredAnswer(content.value, options.schema);
  return parsed.ok ? parsed : fail(parsed.error);
}
