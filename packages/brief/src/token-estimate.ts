/**
 * Bytes of UTF-8 per token that the estimate assumes. Byte-pair tokenizers of current small models (Qwen, Llama,
 * Gemma) take about 4 bytes of English prose, 3 of code or JSON and 3 of Chinese per token (one character); 3 keeps
 * the estimate at or above the real count for all of them, so a prompt cut to a budget fits.
 */
const UTF8_BYTES_PER_TOKEN = 3;
/** What chat templates add around each message (role markers, separators). */
const MESSAGE_OVERHEAD_TOKENS = 8;

const encoder = new TextEncoder();

/** An upper estimate of the tokens of `text`, without the model's tokenizer. */
export function estimateTokens(text: string): number {
  return Math.ceil(encoder.encode(text).length / UTF8_BYTES_PER_TOKEN);
}

/** An upper estimate of a chat prompt's tokens. */
export function estimatePromptTokens(messages: readonly { content: string }[]): number {
  return messages.reduce(
    (sum, message) => sum + MESSAGE_OVERHEAD_TOKENS + estimateTokens(message.content),
    0,
  );
}
