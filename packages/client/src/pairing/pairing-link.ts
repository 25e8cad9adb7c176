import { type E2eKey, parseKey } from "@ringback/e2e-crypto";
import { PairingCodeText } from "@ringback/protocol";
import { ClientError } from "../errors/client-error.js";

/**
 * The pairing link: the web app's address with everything in the URL fragment, which browsers never send to a
 * server, so the relay that serves the page never sees the key:
 *
 *   <web app address>/#pair=<12-digit code>&key=<rbk1_ key>&server=<relay address, URL-encoded>
 *
 * `server` may be left out when the relay serves the web app itself (the link's own address is then the relay).
 */
export interface PairingLink {
  readonly serverUrl: string;
  readonly code: string;
  readonly key: E2eKey;
}

export type PairingLinkProblem = "not_a_pairing_link" | "invalid_code" | "invalid_key" | "invalid_server";

const PROBLEM_MESSAGES: Record<PairingLinkProblem, string> = {
  not_a_pairing_link: "Not a pairing link: it needs #pair=…&key=… at its end.",
  invalid_code: "The pairing link's code is not 12 digits.",
  invalid_key: "The pairing link's key is not an rbk1_ key.",
  invalid_server: "The relay address must be an http(s) address.",
};

/**
 * A pairing link or relay address that cannot be used; `code` (and `problem`, the same word) is what an app words
 * for the person in front of it. A computer answers it as `invalid_request`.
 */
export class PairingLinkError extends ClientError<PairingLinkProblem> {
  override readonly name = "PairingLinkError";
  constructor(readonly problem: PairingLinkProblem) {
    super(problem, PROBLEM_MESSAGES[problem]);
  }
}

/** A relay or web app address as links carry it: http(s), no credentials, query, fragment or trailing slash. */
export function normaliseServerUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new PairingLinkError("invalid_server");
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.username || url.password) {
    throw new PairingLinkError("invalid_server");
  }
  const path = url.pathname.replace(/\/index\.html$/, "").replace(/\/+$/, "");
  return `${url.origin}${path}`;
}

export function formatPairingLink(link: PairingLink, webAppUrl: string = link.serverUrl): string {
  const fragment = new URLSearchParams({
    pair: link.code,
    key: link.key,
    server: normaliseServerUrl(link.serverUrl),
  });
  return `${normaliseServerUrl(webAppUrl)}/#${fragment.toString()}`;
}

/** True when an address carries a pairing fragment (the app opened from a pairing link). */
export function hasPairingFragment(href: string): boolean {
  const hashAt = href.indexOf("#");
  return hashAt >= 0 && new URLSearchParams(href.slice(hashAt + 1)).has("pair");
}

/** Reads a pairing link as pasted or as the page's own address. */
export function parsePairingLink(text: string): PairingLink {
  const trimmed = text.trim();
  const hashAt = trimmed.indexOf("#");
  if (hashAt < 0) throw new PairingLinkError("not_a_pairing_link");
  const fragment = new URLSearchParams(trimmed.slice(hashAt + 1));
  const code = fragment.get("pair");
  const keyText = fragment.get("key");
  if (code === null || keyText === null) throw new PairingLinkError("not_a_pairing_link");
  if (!PairingCodeText.safeParse(code).success) throw new PairingLinkError("invalid_code");
  let key: E2eKey;
  try {
    key = parseKey(keyText);
  } catch {
    throw new PairingLinkError("invalid_key");
  }
  const server = fragment.get("server") ?? trimmed.slice(0, hashAt);
  return { serverUrl: normaliseServerUrl(server), code, key };
}
