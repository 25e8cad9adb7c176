import {
  applyChunk,
  emptyCompletion,
  type StreamedCompletion,
  serverSentDataLines,
} from "./completion-stream.js";
import { type ContentResult, streamedAnswerContent, wholeAnswerContent } from "./model-answer.js";

/** The model's answer as read: its content (or why it is not usable), and the usage the server reported. */
export interface ReadAnswer {
  content: ContentResult;
  usage: StreamedCompletion["usage"];
}

/** Reads the response: server-sent events chunk by chunk, or a whole body from a server that does not stream. */
export async function readAnswer(
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
