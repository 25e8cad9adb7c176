import { type E2eKey, parseKey } from "@ringback/e2e-crypto";
import { PairingCodeText, RingbackError } from "@ringback/protocol";

/** A pairing link's parts: the relay, the 6-digit code, and the account's end-to-end key. */
export interface PairingLink {
  serverUrl: string;
  code: string;
  key: E2eKey;
}

/** A relay or web app address as links carry it: http(s), no credentials, query, fragment or trailing slash. */
export function normaliseServerUrl(text: string): string {
  const url = URL.canParse(text.trim()) ? new URL(text.trim()) : undefined;
  if (!url || !["http:", "https:"].includes(url.protocol) || url.username || url.password) {
    throw new RingbackError("invalid_request", "The relay address must be an http(s) address.");
  }
  return `${url.origin}${url.pathname.replace(/\/index\.html$/, "").replace(/\/+$/, "")}`;
}

/**
 * The web client's pairing link (apps/web-client/README.md):
 * `<app>/#pair=<code>&key=<rbk1_…>&server=<url-encoded relay>`. Everything sits in the fragment, which browsers
 * never send to a server, so the relay serving the app never sees the key.
 */
export function formatPairingLink(link: PairingLink, appUrl: string = link.serverUrl): string {
  const fragment = new URLSearchParams({
    pair: link.code,
    key: link.key,
    server: normaliseServerUrl(link.serverUrl),
  });
  return `${normaliseServerUrl(appUrl)}/#${fragment.toString()}`;
}

/** Reads a pairing link; without `server` the link's own address is the relay (it serves the app). */
export function parsePairingLink(text: string): PairingLink {
  const trimmed = text.trim();
  const hashAt = trimmed.indexOf("#");
  const fragment = new URLSearchParams(hashAt < 0 ? "" : trimmed.slice(hashAt + 1));
  const code = fragment.get("pair");
  const keyText = fragment.get("key");
  if (code === null || keyText === null) {
    throw new RingbackError("invalid_request", "Not a pairing link: it needs #pair=…&key=… at its end.");
  }
  if (!PairingCodeText.safeParse(code).success) {
    throw new RingbackError("invalid_pairing_code", "The pairing link's code is not 6 digits.");
  }
  let key: E2eKey;
  try {
    key = parseKey(keyText);
  } catch {
    throw new RingbackError("invalid_key", "The pairing link's key is not an rbk1_ key.");
  }
  return { serverUrl: normaliseServerUrl(fragment.get("server") ?? trimmed.slice(0, hashAt)), code, key };
}
