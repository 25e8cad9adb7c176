/** Bytes needed to recognise every accepted image format. */
export const IMAGE_SIGNATURE_BYTES = 12;

/**
 * The image format by its first bytes (not by the name or the declared type): PNG, JPEG, GIF or WebP, the
 * formats the client sends as they are (it converts every other image to JPEG first). Undefined: not one
 * of them.
 */
export function imageTypeOf(head: Uint8Array): string | undefined {
  const startsWith = (bytes: readonly number[], offset = 0) =>
    head.length >= offset + bytes.length && bytes.every((byte, index) => head[offset + index] === byte);
  if (startsWith([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "image/png";
  if (startsWith([0xff, 0xd8, 0xff])) return "image/jpeg";
  if (startsWith([0x47, 0x49, 0x46, 0x38, 0x37, 0x61]) || startsWith([0x47, 0x49, 0x46, 0x38, 0x39, 0x61])) {
    return "image/gif";
  }
  // RIFF....WEBP
  if (startsWith([0x52, 0x49, 0x46, 0x46]) && startsWith([0x57, 0x45, 0x42, 0x50], 8)) return "image/webp";
  return undefined;
}
