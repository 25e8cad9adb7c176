import { chatCompletionsUrl } from "@ringback/brief";
import type { QuestionChannel } from "../storage/local-settings.js";
import { ChatStreamParser, ModelAnswerError } from "./chat-stream-parser.js";

export interface ChatMessage {
  readonly role: "system" | "user" | "assistant";
  readonly content: string;
}

/** Characters of a model's error body kept in the message (never the key: the key is only in our header). */
const ERROR_DETAIL_MAX_CHARS = 200;

/**
 * Asks the device's own language model with `stream: true` and hands over the answer piece by piece as it arrives.
 * Resolves with the whole answer. The request goes from the device straight to the model's address.
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
    throw new ModelAnswerError(`The language model at ${options.channel.baseUrl} could not be reached.`, {
      cause,
    });
  }
  if (!response.ok) {
    const detail = (await response.text().catch(() => "")).slice(0, ERROR_DETAIL_MAX_CHARS);
    throw new ModelAnswerError(
      `The language model answered ${response.status}${detail ? `: ${detail}` : ""}.`,
    );
  }
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
    if (typeof content !== "string")
      throw new ModelAnswerError("The language model's answer has no content.");
    take([content]);
    return answer;
  }
  if (!response.body) throw new ModelAnswerError("The language model's answer has no body.");
  const parser = new ChatStreamParser();
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { done, value } = await reader.read();
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
