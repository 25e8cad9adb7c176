import fc from "fast-check";
import { nastyBody, nastyString, type WireBody, wrongTypedBody } from "./nasty-bodies.js";

/** One route of a server under test: its method, its path with `:param` segments, and its body's field names. */
export interface RouteShape {
  readonly method: string;
  readonly path: string;
  readonly fields?: readonly string[];
}

/** A generated request: the method, path and headers as sent, and the body (text or raw bytes). */
export interface HostileRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: WireBody;
}

const METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "PROPFIND"];

const paramValue: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "",
    ".",
    "..",
    "%2e%2e",
    "%2F",
    "%00",
    "evt_0",
    "dev_0",
    "a".repeat(5000),
    "%E0%A4%A",
    "%C0%AF",
  ),
  fc.stringMatching(/^[A-Za-z0-9_-]{1,40}$/),
  // Lone surrogates cannot be percent-encoded: they go as U+FFFD, as a browser would send them.
  nastyString.map((text) => encodeURIComponent(text.toWellFormed())),
);

function fillPath(path: string): fc.Arbitrary<string> {
  const parts = path.split("/");
  return fc
    .tuple(...parts.map((part) => (part.startsWith(":") ? paramValue : fc.constant(part))))
    .map((filled) => filled.join("/"));
}

/** What `Authorization` says: nothing, a valid token of the given ones, or something that is not one. */
function authorization(tokens: readonly string[]): fc.Arbitrary<string | undefined> {
  return fc.oneof(
    {
      weight: 3,
      arbitrary:
        tokens.length > 0
          ? fc.constantFrom(...tokens.map((token) => `Bearer ${token}`))
          : fc.constant(undefined),
    },
    fc.constant(undefined),
    fc.constantFrom(
      "Bearer",
      "Bearer ",
      "bearer x",
      "Basic dXNlcjpwYXNz",
      `Bearer ${"x".repeat(10_000)}`,
      "Bearer \u0000",
    ),
    nastyString.map((text) => `Bearer ${text.replace(/[^\x20-\x7e]/g, "?")}`),
  );
}

const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 4, arbitrary: fc.constant("application/json") },
  fc.constantFrom(
    undefined,
    "text/plain",
    "application/json; charset=utf-16",
    "multipart/form-data",
    "application/x-www-form-urlencoded",
    "*/*",
    "application/jsonx",
    "",
  ),
);

/**
 * Requests aimed at `routes`, mostly well addressed (so validation is reached) and sometimes not: another method,
 * an unknown path, a hostile path parameter; bodies of every shape from valid-looking to hostile; headers with and
 * without a valid credential. `extraHeaders` may add a server's own (Host, Origin, Last-Event-ID).
 */
export function hostileRequests(
  routes: readonly RouteShape[],
  tokens: readonly string[],
  extraHeaders: fc.Arbitrary<Record<string, string>> = fc.constant({}),
): fc.Arbitrary<HostileRequest> {
  const route = fc.constantFrom(...routes);
  return fc
    .tuple(
      route,
      fc.oneof({ weight: 5, arbitrary: fc.constant(null) }, fc.constantFrom(...METHODS)),
      fc.oneof(
        { weight: 9, arbitrary: fc.constant(null) },
        fc.constantFrom("/", "/v1", "/v1/", "/v2/health", "/unknown", "//v1//health", "/v1/health/extra"),
      ),
      authorization(tokens),
      contentType,
      extraHeaders,
      fc.nat(9),
    )
    .chain(([shape, otherMethod, otherPath, auth, type, extra, bodyKind]) =>
      fc
        .tuple(
          otherPath === null ? fillPath(shape.path) : fc.constant(otherPath),
          bodyKind < 5
            ? wrongTypedBody(shape.fields ?? [])
            : bodyKind < 8
              ? nastyBody(shape.fields ?? [])
              : fc.constant(undefined),
        )
        .map(([path, body]) => {
          const method = otherMethod ?? shape.method;
          const headers: Record<string, string> = { ...extra };
          if (auth !== undefined) headers.authorization = auth;
          if (type !== undefined && body !== undefined) headers["content-type"] = type;
          const hasBody = body !== undefined && method !== "GET" && method !== "HEAD";
          return { method, path, headers, ...(hasBody ? { body } : {}) };
        }),
    );
}
