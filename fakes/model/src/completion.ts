/** Bodies in the OpenAI chat-completions shapes. */

const STREAM_CHUNK_WORDS = 3;

let sequence = 0;
const nextId = () => `chatcmpl-fake-${++sequence}`;
const now = () => Math.floor(Date.now() / 1000);

function approximateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

export function chatCompletion(
  model: string,
  content: string | null,
  finishReason: string,
  prompt: string,
  refusal: string | null = null,
) {
  const promptTokens = approximateTokens(prompt);
  const completionTokens = approximateTokens(content ?? "");
  return {
    id: nextId(),
    object: "chat.completion",
    created: now(),
    model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content, refusal },
        logprobs: null,
        finish_reason: finishReason,
      },
    ],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    },
  };
}

/** The chunks of one streamed completion, as `data:` payloads. */
export function completionChunks(model: string) {
  const id = nextId();
  const created = now();
  return {
    chunk: (delta: Record<string, unknown>, finish: string | null) =>
      JSON.stringify({
        id,
        object: "chat.completion.chunk",
        created,
        model,
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
      }),
    /** The last chunk when the request asks `stream_options: {include_usage: true}`: no choices, the usage. */
    usage: (prompt: string, content: string) => {
      const promptTokens = approximateTokens(prompt);
      const completionTokens = approximateTokens(content);
      return JSON.stringify({
        id,
        object: "chat.completion.chunk",
        created,
        model,
        choices: [],
        usage: {
          prompt_tokens: promptTokens,
          completion_tokens: completionTokens,
          total_tokens: promptTokens + completionTokens,
        },
      });
    },
  };
}

/** The `data:` lines of a streamed completion, `[DONE]` included. */
export function streamEvents(
  model: string,
  content: string | null,
  finishReason: string,
  refusal: string | null = null,
): string[] {
  const { chunk } = completionChunks(model);
  const words = (content ?? "").split(/(?<=\s)/);
  const pieces: string[] = [];
  for (let index = 0; index < words.length; index += STREAM_CHUNK_WORDS) {
    pieces.push(words.slice(index, index + STREAM_CHUNK_WORDS).join(""));
  }
  return [
    chunk({ role: "assistant", content: "" }, null),
    ...(refusal === null ? [] : [chunk({ refusal }, null)]),
    ...pieces.filter((piece) => piece.length > 0).map((piece) => chunk({ content: piece }, null)),
    chunk({}, finishReason),
    "[DONE]",
  ];
}

export function modelList(ids: readonly string[]) {
  return {
    object: "list",
    data: ids.map((id) => ({ id, object: "model", created: 0, owned_by: "ringback-fake" })),
  };
}
