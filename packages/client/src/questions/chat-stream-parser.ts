import { createParser, type EventSourceParser } from "eventsource-parser";
import { ModelAnswerError, PROVIDER_DETAIL_MAX_CHARS } from "./model-problem.js";

/**
 * Reads an OpenAI-compatible chat-completions stream (server-sent events, split by `eventsource-parser`) as its bytes
 * arrive: `push` takes the text received so far in any cuts (a line, an event or a JSON object may be split anywhere)
 * and returns the answer's new content. Comments and other fields are skipped; `data: [DONE]` ends it; an `error`
 * object or a chunk that is not JSON rejects with a `ModelAnswerError`.
 */
export class ChatStreamParser {
  #events: string[] = [];
  #isDone = false;
  readonly #parser: EventSourceParser = createParser({ onEvent: (event) => this.#events.push(event.data) });

  get isDone(): boolean {
    return this.#isDone;
  }

  push(text: string): string[] {
    this.#parser.feed(text);
    return this.#takeEvents();
  }

  /** The stream ended: an event not yet closed by a blank line still counts. */
  finish(): string[] {
    this.#parser.feed("\n\n");
    return this.#takeEvents();
  }

  #takeEvents(): string[] {
    const events = this.#events;
    this.#events = [];
    return events.flatMap((data) => this.#contentOf(data));
  }

  #contentOf(data: string): string[] {
    if (this.#isDone) return [];
    if (data.trim() === "[DONE]") {
      this.#isDone = true;
      return [];
    }
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch {
      throw new ModelAnswerError({ kind: "stream-not-json" });
    }
    const error = (chunk as { error?: { message?: unknown } } | null)?.error;
    if (error) {
      const said = typeof error.message === "string" ? error.message.trim() : "";
      throw new ModelAnswerError({
        kind: "failed-mid-answer",
        detail: said === "" ? null : said.slice(0, PROVIDER_DETAIL_MAX_CHARS),
      });
    }
    const choice = (chunk as { choices?: { delta?: { content?: unknown } }[] } | null)?.choices?.[0];
    const content = choice?.delta?.content;
    return typeof content === "string" && content !== "" ? [content] : [];
  }
}
