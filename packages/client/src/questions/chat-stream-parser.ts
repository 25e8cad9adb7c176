import { ModelAnswerError, PROVIDER_DETAIL_MAX_CHARS } from "./model-problem.js";

/**
 * Reads an OpenAI-compatible chat-completions stream (server-sent events) as its bytes arrive: `push` takes the text
 * received so far in any cuts (a line, an event or a JSON object may be split anywhere) and returns the answer's new
 * content. Comments and other fields are skipped; `data: [DONE]` ends it; an `error` object or a chunk that is
 * not JSON rejects with a `ModelAnswerError`.
 */
export class ChatStreamParser {
  #buffer = "";
  #data: string[] = [];
  #isDone = false;

  get isDone(): boolean {
    return this.#isDone;
  }

  push(text: string): string[] {
    this.#buffer += text;
    const deltas: string[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.#buffer);
      // A lone "\r" at the end may be the first half of "\r\n": wait for the next piece.
      if (!match || (match[0] === "\r" && match.index === this.#buffer.length - 1)) break;
      const line = this.#buffer.slice(0, match.index);
      this.#buffer = this.#buffer.slice(match.index + match[0].length);
      deltas.push(...this.#line(line));
    }
    return deltas;
  }

  /** The stream ended: an event not yet closed by a blank line still counts. */
  finish(): string[] {
    const deltas = this.#buffer === "" ? [] : this.#line(this.#buffer);
    this.#buffer = "";
    return [...deltas, ...this.#dispatch()];
  }

  #line(line: string): string[] {
    if (line === "") return this.#dispatch();
    if (line.startsWith(":")) return [];
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.#data.push(value);
    return [];
  }

  #dispatch(): string[] {
    if (this.#data.length === 0) return [];
    const data = this.#data.join("\n");
    this.#data = [];
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
