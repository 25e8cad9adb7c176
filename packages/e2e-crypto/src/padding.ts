/**
 * Sealed JSON may be padded with spaces after the JSON text, which every JSON parser skips, so that the relay sees
 * one of a few ciphertext lengths instead of the exact length of a report or a reply. The rule: UTF-8 lengths up to
 * `PAD_LINEAR_FROM_BYTES` grow to the next power of two (at least `PAD_MIN_BYTES`); longer ones to the next multiple
 * of `PAD_LINEAR_FROM_BYTES`, so a large report gains at most that much.
 */
export const PAD_MIN_BYTES = 256;
export const PAD_LINEAR_FROM_BYTES = 64 * 1024;

/** The length a plaintext of `bytes` UTF-8 bytes is padded to. */
export function paddedLength(bytes: number): number {
  if (!Number.isSafeInteger(bytes) || bytes < 0) throw new RangeError("A length is a whole number of bytes.");
  if (bytes > PAD_LINEAR_FROM_BYTES) return Math.ceil(bytes / PAD_LINEAR_FROM_BYTES) * PAD_LINEAR_FROM_BYTES;
  let length = PAD_MIN_BYTES;
  while (length < bytes) length *= 2;
  return length;
}

const encoder = new TextEncoder();

/** `jsonText` followed by the spaces that bring its UTF-8 length to `paddedLength`. */
export function padJsonText(jsonText: string): string {
  const bytes = encoder.encode(jsonText).length;
  return jsonText + " ".repeat(paddedLength(bytes) - bytes);
}
