/**
 * Keys shorter than this are placeholders that local servers accept ("ollama", "none"), not secrets;
 * replacing every "none" in a brief would garble it.
 */
const REDACTED_SECRET_MIN_CHARS = 8;
const REDACTION = "[redacted]";

/** The text with every occurrence of the secret replaced. */
export function redactSecret(text: string, secret: string): string {
  if (secret.length < REDACTED_SECRET_MIN_CHARS) return text;
  return text.split(secret).join(REDACTION);
}

/** Every string inside a JSON value redacted. */
export function redactDeep<T>(value: T, secret: string): T {
  if (typeof value === "string") return redactSecret(value, secret) as T;
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, secret)) as T;
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [key, redactDeep(item, secret)]),
    ) as T;
  }
  return value;
}
