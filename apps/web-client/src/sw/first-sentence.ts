/** A notification body is one sentence; a sentence longer than this is cut with an ellipsis. */
export const NOTIFICATION_BODY_MAX_CHARS = 180;

/** The text's first sentence (ending at . ! ? or their CJK forms), whitespace collapsed. */
export function firstSentence(text: string): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const match = flat.match(/^.*?(?:[.!?](?=\s|$)|[。！？])/u);
  const sentence = match ? match[0] : flat;
  return sentence.length > NOTIFICATION_BODY_MAX_CHARS
    ? `${sentence.slice(0, NOTIFICATION_BODY_MAX_CHARS - 1).trimEnd()}…`
    : sentence;
}
