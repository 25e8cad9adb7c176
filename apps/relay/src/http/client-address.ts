import type { Context } from "hono";
import type { RelayEnv } from "../relay-env.js";

const IPV4_MAPPED = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i;
const IPV6_PREFIX_GROUPS = 4;

/**
 * The address rate limits count against. `X-Forwarded-For` is read only behind a proxy, and then its last entry
 * (the one the proxy itself added; earlier ones are the client's to invent). IPv6 counts per /64, since one user
 * holds a whole /64.
 */
export function clientAddress(c: Context<RelayEnv>, isBehindProxy: boolean): string {
  let address: string | undefined;
  if (isBehindProxy) {
    address = c.req.header("X-Forwarded-For")?.split(",").at(-1)?.trim();
  }
  address ||= c.env?.incoming?.socket.remoteAddress;
  return address ? addressBucket(address) : "unknown";
}

/** What limits count an address as: an IPv4 address (also when IPv4-mapped), or an IPv6 address's /64. */
export function addressBucket(address: string): string {
  const mapped = address.match(IPV4_MAPPED);
  if (mapped?.[1]) return mapped[1];
  if (!address.includes(":")) return address;
  const groups = expandIpv6(address);
  return groups ? `${groups.slice(0, IPV6_PREFIX_GROUPS).join(":")}::/64` : address;
}

/**
 * The IPv6 site (/48) a client's bucket (a /64) is part of: whoever holds a /48 (what a provider hands a customer at
 * most) has 65,536 /64s to rotate through. Null for an IPv4 bucket.
 */
export function ipv6Site(bucket: string): string | null {
  if (!bucket.endsWith("::/64")) return null;
  return `${bucket.slice(0, -"::/64".length).split(":").slice(0, 3).join(":")}::/48`;
}

/**
 * The address block a client's bucket is part of, which some limits count as well: an IPv4 address's /24 (one
 * provider's neighbourhood, a small hosting subnet), an IPv6 /64's /48 (one customer's site).
 */
export function addressBlock(bucket: string): string {
  const site = ipv6Site(bucket);
  if (site !== null) return site;
  const octets = bucket.split(".");
  return octets.length === 4 ? `${octets.slice(0, 3).join(".")}.0/24` : bucket;
}

function expandIpv6(address: string): string[] | null {
  const [head = "", tail] = address.split("%")[0]?.split("::") ?? [];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return null;
  return [...left, ...Array<string>(missing).fill("0"), ...right].map((group) => group.toLowerCase() || "0");
}
