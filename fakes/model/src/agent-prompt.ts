/** What an agent CLI asked, read from an Anthropic Messages or OpenAI Responses request body. */

interface PromptMessage {
  role?: unknown;
  content?: unknown;
}

function textParts(content: unknown): string[] {
  if (typeof content === "string") return [content];
  if (!Array.isArray(content)) return [];
  return content
    .map((part: { text?: unknown } | null) => (typeof part?.text === "string" ? part.text : ""))
    .filter((text) => text.length > 0);
}

/**
 * The last text the user typed: the last text part of the last user message (`messages` in the Messages API,
 * `input` in the Responses API). Agents put reminders and environment notes in earlier parts and messages.
 */
export function lastUserText(body: unknown): string {
  const request = body as { messages?: unknown; input?: unknown } | null;
  if (typeof request?.input === "string") return request.input;
  const list = Array.isArray(request?.messages) ? request.messages : request?.input;
  if (!Array.isArray(list)) return "";
  const user = (list as PromptMessage[]).filter((message) => message?.role === "user");
  return textParts(user.at(-1)?.content).at(-1) ?? "";
}

/** A rough token count for usage fields: four characters a token. */
export function approximateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Splits text into a few words a piece, so that a stream has several deltas. */
export function textPieces(text: string, wordsPerPiece = 3): string[] {
  const words = text.split(/(?<=\s)/);
  const pieces: string[] = [];
  for (let index = 0; index < words.length; index += wordsPerPiece) {
    pieces.push(words.slice(index, index + wordsPerPiece).join(""));
  }
  return pieces.filter((piece) => piece.length > 0);
}
