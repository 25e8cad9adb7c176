/** One request on the way: the first, or one that follows a redirect. */
export interface Hop {
  url: URL;
  method: string;
  headers: Headers;
  body: Buffer | null;
}

/** `fetch`'s limit on redirects in a row. */
export const REDIRECTS_MAX = 20;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** The headers that describe a body, dropped with it when a redirect turns the request into a GET. */
const BODY_HEADERS = [
  "content-type",
  "content-length",
  "content-encoding",
  "content-language",
  "content-location",
];

export function isRedirect(status: number): boolean {
  return REDIRECT_STATUSES.has(status);
}

/**
 * The request after a redirect, as `fetch` makes it (the Fetch standard's HTTP-redirect fetch): 307 and 308 keep
 * the method and the body; 303, and 301 or 302 after a POST, become a GET without a body. The key does not follow
 * to another origin (`authorization` is dropped), so a redirect cannot hand it to a server it was not meant for.
 */
export function redirectedHop(hop: Hop, status: number, location: URL): Hop {
  const becomesGet =
    (status === 303 && hop.method !== "HEAD") ||
    ((status === 301 || status === 302) && hop.method === "POST");
  const headers = new Headers(hop.headers);
  if (becomesGet) for (const name of BODY_HEADERS) headers.delete(name);
  if (location.origin !== hop.url.origin) headers.delete("authorization");
  return {
    url: location,
    method: becomesGet ? "GET" : hop.method,
    headers,
    body: becomesGet ? null : hop.body,
  };
}
