/** What went wrong on the way to the model's server, in words, with Node's error kept as the cause. */
class ModelConnectionError extends Error {
  readonly code: string | undefined;

  constructor(message: string, code: string | undefined, cause: unknown) {
    super(message, { cause });
    this.name = "ModelConnectionError";
    this.code = code;
  }
}

/** OpenSSL's certificate errors and Node's: the server was reached, its certificate was not trusted. */
const CERTIFICATE_CODE = /^(ERR_TLS_CERT_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/;
/** Any other failure of the TLS handshake (`ERR_SSL_WRONG_VERSION_NUMBER`: https:// to a plain HTTP port). */
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_)/;

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

function summaryOf(code: string | undefined): string {
  if (code === undefined) return "the request failed";
  if (code === "ECONNREFUSED") return "nothing accepts connections at that address";
  if (code === "ERR_FORBIDDEN_ADDRESS")
    return "model calls never go to a link-local or cloud metadata address";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "the server's name could not be resolved";
  if (code === "ECONNRESET" || code === "EPIPE") return "the server closed the connection";
  if (["ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EHOSTDOWN"].includes(code)) {
    return "the address could not be reached";
  }
  if (CERTIFICATE_CODE.test(code)) return "TLS failed: the server's certificate is not trusted here";
  if (TLS_CODE.test(code)) return "TLS failed";
  return "the request failed";
}

/**
 * A network failure as `fetch` reports one: a `TypeError` ("fetch failed: …"), whose cause says in words what
 * failed and names Node's code (`ECONNREFUSED`, `DEPTH_ZERO_SELF_SIGNED_CERT`, …) and keeps Node's error as its
 * own cause. `@ringback/brief` puts the cause's message into the brief's error, as it does with undici's.
 */
export function networkError(error: unknown): TypeError {
  const code = codeOf(error);
  const detail = error instanceof Error ? error.message : String(error);
  const named = code === undefined || detail.includes(code) ? detail : `${detail}, ${code}`;
  const message = `${summaryOf(code)} (${named})`;
  return new TypeError(`fetch failed: ${message}`, { cause: new ModelConnectionError(message, code, error) });
}

/** The server's response ended before its body was complete, with no error of the socket's to tell why. */
export function cutOffError(): TypeError {
  return networkError(
    Object.assign(new Error("the connection closed before the answer was complete"), { code: "ECONNRESET" }),
  );
}
