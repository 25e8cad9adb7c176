/**
 * The origin (scheme, host and port) of an http(s) address, as a browser compares them; null for anything else. A
 * saved secret is bound to the origin it was saved for: it is sent there and nowhere else.
 */
export function originOf(address: unknown): string | null {
  if (typeof address !== "string" || !URL.canParse(address.trim())) return null;
  const url = new URL(address.trim());
  return url.protocol === "http:" || url.protocol === "https:" ? url.origin : null;
}

/** True when both are http(s) addresses of one origin: a secret saved for one may be sent to the other. */
export function isSameOrigin(saved: unknown, requested: unknown): boolean {
  const origin = originOf(saved);
  return origin !== null && origin === originOf(requested);
}
