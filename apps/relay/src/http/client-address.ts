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

function expandIpv6(address: string): string[] | null {
  const [head = "", tail] = address.split("%")[0]?.split("::") ?? [];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return null;
  return [...left, ...Array<string>(missing).fill("0"), ...right].map((group) => group.toLowerCase() || "0");
}
