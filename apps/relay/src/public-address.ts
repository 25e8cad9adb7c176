import { RelayUsageError } from "./cli-options-error.js";

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * `--public-url`: the address people and devices reach this relay at (behind Caddy, or its own TLS), put into
 * pairing links and printed at start. A phone's browser needs HTTPS (a secure context) for the service worker and
 * Web Push, so anything but loopback must be `https:`. Only an origin: a path, query or fragment is refused.
 */
export function publicUrl(text: string): string {
  const trimmed = text.trim();
  if (!URL.canParse(trimmed))
    throw new RelayUsageError(`--public-url ${trimmed} is not a URL (e.g. https://ring.example.com).`);
  const url = new URL(trimmed);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname))) {
    throw new RelayUsageError(
      `--public-url must be https:// (a phone's browser rings only in a secure context); http:// is only for localhost. Got ${url.protocol}//${url.host}.`,
    );
  }
  if (
    url.pathname !== "/" ||
    url.search !== "" ||
    url.hash !== "" ||
    url.username !== "" ||
    url.password !== ""
  ) {
    throw new RelayUsageError(
      `--public-url must be an origin only, such as ${url.origin} (no path, query or fragment).`,
    );
  }
  return url.origin;
}
