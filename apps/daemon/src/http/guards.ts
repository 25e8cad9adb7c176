import { LOCAL_REQUEST_PROOF_HEADER, RingbackError } from "@ringback/protocol";
import type { MiddlewareHandler } from "hono";
import { isLocalKey } from "../runtime/keys/local-key.js";
import { type ProvenRequestOptions, provenRequestRunner } from "./local-proof/proven-request.js";

const LOOPBACK_HOSTNAMES = ["127.0.0.1", "localhost", "[::1]"];

/** True for `127.0.0.1:<port>`, `localhost:<port>` or `[::1]:<port>` with the daemon's own port. */
function isLoopbackHost(host: string | undefined, port: number): boolean {
  if (!host) return false;
  const normalised = host.toLowerCase();
  return LOOPBACK_HOSTNAMES.some((hostname) => normalised === `${hostname}:${port}`);
}

/**
 * The guards every request passes, in this order (see README: Guards):
 * loopback Host (DNS rebinding) -> no Origin (web pages) -> the local key (constant time), either as a proof made
 * with it (the hook's form, whose answer the daemon signs) or as a bearer token (another local program of the user's).
 */
export function localOnly(options: ProvenRequestOptions): MiddlewareHandler {
  const runProvenRequest = provenRequestRunner(options);
  return async (context, next) => {
    if (!isLoopbackHost(context.req.header("host"), options.port())) {
      throw new RingbackError("invalid_host");
    }
    // Browsers send Origin on every cross-origin and every non-GET request; native clients never need it.
    if (context.req.header("origin") !== undefined) throw new RingbackError("origin_not_allowed");
    const proofHeader = context.req.header(LOCAL_REQUEST_PROOF_HEADER);
    if (proofHeader !== undefined) return runProvenRequest(context, next, proofHeader);
    if (!isLocalKey(bearerToken(context.req.header("authorization")) ?? "", options.localKey)) {
      throw new RingbackError("unauthorized");
    }
    await next();
  };
}

function bearerToken(header: string | undefined): string | undefined {
  const match = header?.match(/^Bearer +(\S+) *$/i);
  return match?.[1];
}
