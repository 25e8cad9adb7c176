import { createParser } from "eventsource-parser";

/** What a streamed chat completion has said so far, gathered chunk by chunk. */
export interface StreamedCompletion {
  content: string;
  refusal: string;
  finishReason: string | null;
  /** `usage` of the last chunk (`stream_options: {include_usage: true}`), when the server sends it. */
  usage: { promptTokens: number | null; outputTokens: number | null } | null;
  /** `[DONE]` came. */
  isDone: boolean;
  /** An error the server sent inside the stream. */
  error: string | null;
}

export function emptyCompletion(): StreamedCompletion {
  return {
    content: "",
    refusal: "",
    finishReason: null,
    usage: null,
    isDone: false,
    error: null,
  };
}

interface ChunkChoice {
  delta?: {
    content?: unknown;
    refusal?: unknown;
    reasoning_content?: unknown;
    reasoning?: unknown;
  };
  finish_reason?: unknown;
}

interface Chunk {
  choices?: ChunkChoice[];
  usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } | null;
  /** llama.cpp's server adds its own counts to the last chunk. */
  timings?: { prompt_n?: unknown; predicted_n?: unknown };
  error?: { message?: unknown } | string;
}

const numberOrNull = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? value : null);
const isText = (value: unknown): value is string => typeof value === "string" && value.length > 0;

/**
 * Folds one `data:` payload into the completion; true when it carried a token. A payload that is not JSON is
 * skipped: a proxy's keep-alive must not fail a brief that is still being written.
 */
export function applyChunk(completion: StreamedCompletion, data: string): boolean {
  if (data === "[DONE]") {
    completion.isDone = true;
    return false;
  }
  let chunk: Chunk;
  try {
    chunk = JSON.parse(data) as Chunk;
  } catch {
    return false;
  }
  if (chunk.error !== undefined) {
    const message = typeof chunk.error === "string" ? chunk.error : chunk.error?.message;
    completion.error = typeof message === "string" ? message : "an error without a message";
    return false;
  }
  if (chunk.usage) {
    completion.usage = {
      promptTokens: numberOrNull(chunk.usage.prompt_tokens),
      outputTokens: numberOrNull(chunk.usage.completion_tokens),
    };
  } else if (chunk.timings && completion.usage === null) {
    completion.usage = {
      promptTokens: numberOrNull(chunk.timings.prompt_n),
      outputTokens: numberOrNull(chunk.timings.predicted_n),
    };
  }
  const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
  if (!choice) return false;
  if (typeof choice.finish_reason === "string") completion.finishReason = choice.finish_reason;
  const delta = choice.delta ?? {};
  if (isText(delta.content)) completion.content += delta.content;
  if (isText(delta.refusal)) completion.refusal += delta.refusal;
  const hasToken =
    isText(delta.content) ||
    isText(delta.refusal) ||
    isText(delta.reasoning_content) ||
    isText(delta.reasoning);
  return hasToken;
}

/**
 * The `data:` payloads of server-sent events as they arrive (split by `eventsource-parser`): `push` takes decoded text
 * and returns the payloads of the events it completed, `end` those of an event the stream closed without a blank line.
 * Comments and other fields are dropped; each `data:` line is one payload, as OpenAI-compatible servers write them.
 */
export function serverSentDataLines(): { push(text: string): string[]; end(): string[] } {
  let payloads: string[] = [];
  const parser = createParser({
    onEvent: (event) => {
      for (const line of event.data.split("\n")) {
        const payload = line.trim();
        if (payload.length > 0) payloads.push(payload);
      }
    },
  });
  const take = (text: string) => {
    parser.feed(text);
    const completed = payloads;
    payloads = [];
    return completed;
  };
  return { push: take, end: () => take("\n\n") };
}
