import { isIP } from "node:net";

/** Where push endpoints may point: the push services' hosts, and the exact origins the operator trusts. */
export interface PushEndpointPolicy {
  /** Host names (each with its subdomains) an endpoint may name (`--push-hosts`); port 443 only. */
  readonly hosts: readonly string[];
  /**
   * Exact origins (`https://host:port`) accepted as they are, port and address included, and not held to the
   * public-address check (`--push-trusted-origins`): a test push service on loopback, or one inside the operator's
   * own network. None by default.
   */
  readonly trustedOrigins: readonly string[];
}

/** An endpoint the relay may push to: the one parse every check and the request itself are made from. */
export interface PushEndpoint {
  /** The endpoint as stored and as the browser gave it (its canonical form: nothing was normalised away). */
  readonly href: string;
  /** `https://host[:port]`: the VAPID audience. */
  readonly origin: string;
  readonly hostname: string;
  readonly port: number;
  /** Path and query, as sent in the request line. */
  readonly path: string;
  /** At a trusted origin: not held to the public-address check. */
  readonly isTrusted: boolean;
}

/** Why an endpoint is refused: said to the device that registers it (400), and logged when one is met later. */
export class PushEndpointRefused extends Error {
  override readonly name = "PushEndpointRefused";
}

/** A host name of plain letters, digits, dots and hyphens, as a push service's is. */
const PLAIN_HOST_NAME = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*$/;
const HTTPS_PORT = 443;

/**
 * Parses an endpoint once with the WHATWG URL parser and checks that parse: `https:`, no user or password, no port
 * (443), a host name of plain letters, digits, dots and hyphens (no IP literal) that is a push host or a subdomain
 * of one, and text that is already the parse's canonical form, so no other parser could read another host out of
 * it. An endpoint at a trusted origin is accepted as it is. The request is then built from the returned parse,
 * never from the text again.
 */
export function parsePushEndpoint(text: string, policy: PushEndpointPolicy): PushEndpoint {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new PushEndpointRefused("endpoint is not a URL.");
  }
  if (url.href !== text) throw new PushEndpointRefused("endpoint is not in its canonical form.");
  if (url.protocol !== "https:") throw new PushEndpointRefused("endpoint must be https.");
  if (url.username !== "" || url.password !== "")
    throw new PushEndpointRefused("endpoint may not carry a user.");
  const endpoint = {
    href: url.href,
    origin: url.origin,
    hostname: url.hostname,
    port: url.port === "" ? HTTPS_PORT : Number(url.port),
    path: `${url.pathname}${url.search}`,
  };
  if (policy.trustedOrigins.includes(url.origin)) return { ...endpoint, isTrusted: true };
  if (url.port !== "") throw new PushEndpointRefused("endpoint may not name a port.");
  if (isIP(url.hostname) !== 0 || url.hostname.startsWith("[") || !PLAIN_HOST_NAME.test(url.hostname)) {
    throw new PushEndpointRefused("endpoint's host must be a name of letters, digits, dots and hyphens.");
  }
  if (!isPushServiceHost(url.hostname, policy.hosts)) {
    throw new PushEndpointRefused("endpoint is not at a known push service (the relay's --push-hosts).");
  }
  return { ...endpoint, isTrusted: false };
}

/** True when `hostname` is one of `hosts` or a subdomain of one. */
function isPushServiceHost(hostname: string, hosts: readonly string[]): boolean {
  return hosts.some((host) => hostname === host || hostname.endsWith(`.${host}`));
}
