import { chatCompletionsUrl } from "@ringback/protocol";
import type { QuestionChannel } from "../storage/local-settings.js";
import { ChatStreamParser } from "./chat-stream-parser.js";
import { ModelAnswerError, statusProblem } from "./model-problem.js";

export interface ChatMessage {
  readonly role: "system" | "user" | "assistant";
  readonly content: string;
}

/**
 * Asks the device's own language model with `stream: true` and hands over the answer piece by piece as it arrives.
 * Resolves with the whole answer; rejects with a `ModelAnswerError` saying why not (an abort rejects as the abort). The
 * request goes from the device straight to the model's address; the key is sent only in the header.
 */
export async function streamAnswer(options: {
  readonly channel: QuestionChannel;
  readonly messages: readonly ChatMessage[];
  readonly onDelta: (text: string) => void;
  readonly signal?: AbortSignal;
  readonly fetch?: typeof fetch;
}): Promise<string> {
  const fetchImpl = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  let response: Response;
  try {
    response = await fetchImpl(chatCompletionsUrl(options.channel.baseUrl), {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "text/event-stream",
        Authorization: `Bearer ${options.channel.apiKey}`,
      },
      body: JSON.stringify({ model: options.channel.model, messages: options.messages, stream: true }),
      signal: options.signal,
    });
  } catch (cause) {
    if (options.signal?.aborted) throw cause;
    throw new ModelAnswerError({ kind: "unreachable", address: options.channel.baseUrl }, { cause });
  }
  if (!response.ok) throw new ModelAnswerError(await statusProblem(response, options.channel.apiKey));
  let answer = "";
  const take = (deltas: string[]) => {
    for (const delta of deltas) {
      answer += delta;
      options.onDelta(delta);
    }
  };
  // A server that ignores `stream: true` answers one JSON completion.
  if (!response.headers.get("content-type")?.includes("text/event-stream")) {
    const completion = (await response.json().catch(() => null)) as {
      choices?: { message?: { content?: unknown } }[];
    } | null;
    const content = completion?.choices?.[0]?.message?.content;
    if (typeof content !== "string") throw new ModelAnswerError({ kind: "no-content" });
    take([content]);
    return answer;
  }
  if (!response.body) throw new ModelAnswerError({ kind: "no-body" });
  const parser = new ChatStreamParser();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    let piece: ReadableStreamReadResult<string>;
    try {
      piece = await reader.read();
    } catch (cause) {
      if (options.signal?.aborted) throw cause;
      throw new ModelAnswerError({ kind: "answer-cut-off" }, { cause });
    }
    const { done, value } = piece;
    if (done) break;
    take(parser.push(value));
    if (parser.isDone) {
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  take(parser.finish());
  return answer;
}
