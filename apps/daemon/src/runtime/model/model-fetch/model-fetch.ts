// Kept instead of Node's `fetch` (or ky, which calls it), for a measured reason: on Node 24.21 `fetch` gives up when a
// response's head takes 300 s ("fetch failed", UND_ERR_HEADERS_TIMEOUT after 301 s against a server that answers at
// 310 s), and a local model reading a long report behind Ollama's endpoint sends its head only with the first token.
// Only an undici `Agent` passed as `dispatcher` lifts that limit, and Node does not expose its own copy
// (`import("undici")` fails with ERR_MODULE_NOT_FOUND): it would be a second HTTP client as a dependency, and the
// forbidden-address check would still need a hook besides `lookup`, which Node does not call for an IP-literal host
// (checked: 0 calls). node:http covers all of it here.
import { type ClientRequest, request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { forbiddenLiteralHost, guardedLookup } from "../model-test/guarded-lookup.js";
import { networkError } from "./network-error.js";
import { type Hop, isRedirect, REDIRECTS_MAX, redirectedHop } from "./redirect.js";
import { responseBody } from "./response-body.js";

/** Statuses whose response has no body (the `Response` constructor refuses one). */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

function outgoingHeaders(hop: Hop): Record<string, string> {
  const headers = Object.fromEntries(hop.headers);
  // No compression, so each token is on the wire as soon as it is written (and there is nothing to inflate).
  headers["accept-encoding"] ??= "identity";
  if (hop.body !== null) headers["content-length"] = String(hop.body.byteLength);
  else if (hop.method !== "GET" && hop.method !== "HEAD") headers["content-length"] = "0";
  return headers;
}

function responseOf(incoming: IncomingMessage, outgoing: ClientRequest, hop: Hop, signal: AbortSignal) {
  const headers = new Headers();
  const raw = incoming.rawHeaders;
  for (let index = 0; index + 1 < raw.length; index += 2) headers.append(raw[index]!, raw[index + 1]!);
  const status = incoming.statusCode ?? 0;
  const hasBody = hop.method !== "HEAD" && !NULL_BODY_STATUSES.has(status);
  if (!hasBody) incoming.resume();
  return new Response(hasBody ? responseBody(incoming, outgoing, signal) : null, {
    status,
    statusText: incoming.statusMessage ?? "",
    headers,
  });
}

/**
 * One request and its response's head. No timer of its own: the request waits for the head as long as the
 * server takes, and the caller's signal decides when to stop. Aborting destroys the request, which closes its
 * connection at once, so the server notices.
 */
function exchange(hop: Hop, signal: AbortSignal): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    const send =
      hop.url.protocol === "https:" ? httpsRequest : hop.url.protocol === "http:" ? httpRequest : undefined;
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    if (send === undefined) {
      reject(new TypeError(`fetch failed: ${hop.url.protocol} is not an http: or https: address`));
      return;
    }
    const forbidden = forbiddenLiteralHost(hop.url);
    if (forbidden) {
      reject(networkError(forbidden));
      return;
    }
    // Its own connection per call (no pool): giving up closes exactly this call's socket, and a long call never
    // starts on a kept-alive socket the server has meanwhile closed.
    // Every hop's name is resolved through the guard: no redirect or rebinding reaches a metadata address.
    const outgoing = send(hop.url, {
      method: hop.method,
      headers: outgoingHeaders(hop),
      agent: false,
      lookup: guardedLookup,
    });
    const onAbort = () => {
      outgoing.destroy();
      reject(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    outgoing.on("error", (error) => {
      signal.removeEventListener("abort", onAbort);
      reject(networkError(error));
    });
    outgoing.once("response", (incoming) => {
      signal.removeEventListener("abort", onAbort);
      try {
        resolve(responseOf(incoming, outgoing, hop, signal));
      } catch (error) {
        outgoing.destroy();
        reject(new TypeError("fetch failed: the server's response is not valid HTTP", { cause: error }));
      }
    });
    outgoing.end(hop.body ?? undefined);
  });
}

/**
 * `fetch` for the calls to the user's language model, on `node:http` and `node:https` (the CAs are Node's
 * defaults, as for any https request). Node's own `fetch` gives up when a response's head takes 300 s and when
 * 300 s pass between two pieces of its body, whatever the caller allows; a local model reading a long prompt
 * behind a server that sends its head only with the first token (Ollama's OpenAI-compatible endpoint does) can
 * take longer than that. This one has no time limit of its own: the call's limits (`modelCallLimits`, through
 * `signal`) decide.
 *
 * The response's body streams as it arrives; aborting `signal` (before or during the body) or cancelling the
 * body closes the connection at once. Redirects are followed as `fetch` follows them (`redirect` is honoured),
 * without the `authorization` header to another origin. A network failure rejects with a `TypeError` whose
 * message and cause say what failed (`ECONNREFUSED`, a certificate not trusted, …).
 */
export async function modelFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const request = new Request(input, init);
  const body = request.body === null ? null : Buffer.from(await request.arrayBuffer());
  let hop: Hop = { url: new URL(request.url), method: request.method, headers: request.headers, body };
  for (let redirects = 0; ; redirects++) {
    const response = await exchange(hop, request.signal);
    const location = response.headers.get("location");
    if (request.redirect === "manual" || !isRedirect(response.status) || location === null) return response;
    await response.body?.cancel();
    if (request.redirect === "error")
      throw new TypeError(`fetch failed: the server redirected the request (redirect: "error")`);
    if (redirects === REDIRECTS_MAX)
      throw new TypeError(`fetch failed: more than ${REDIRECTS_MAX} redirects`);
    hop = redirectedHop(hop, response.status, new URL(location, hop.url));
  }
}
