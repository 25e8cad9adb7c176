import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions } from "node:dns";
import { BlockList, isIP, isIPv4 } from "node:net";

/** `dns.lookup`'s shape, all addresses at once: what the relay resolves push services with (tests inject theirs). */
export type ResolveAll = (hostname: string) => Promise<LookupAddress[]>;

/** The system resolver (`dns.lookup`, as Node connects), every address of the name. */
export const systemResolveAll: ResolveAll = (hostname) =>
  new Promise((resolve, reject) => {
    const options: LookupAllOptions = { all: true, order: "verbatim" };
    dnsLookup(hostname, options, (error, addresses) => (error ? reject(error) : resolve(addresses)));
  });

/**
 * IPv4 that is not the public internet: this network, private (RFC 1918), shared (CGNAT, RFC 6598), loopback,
 * link-local (cloud metadata at 169.254.169.254), IETF protocol assignments, documentation, benchmarking, 6to4
 * relay anycast, multicast, reserved and broadcast; and Azure's metadata/wire server, which sits in a public range.
 */
const INTERNAL_V4: readonly (readonly [string, number])[] = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
  ["168.63.129.16", 32],
];

/**
 * IPv6 that is not the public internet: unspecified, loopback, IPv4-compatible, discard, IETF protocol assignments
 * (Teredo, benchmarking, ORCHID), documentation, unique local (AWS metadata at fd00:ec2::254), link-local, site-local,
 * multicast, and local-use NAT64. IPv4-mapped, well-known NAT64 and 6to4 addresses are judged by the IPv4 inside.
 */
const INTERNAL_V6: readonly (readonly [string, number])[] = [
  ["::", 128],
  ["::1", 128],
  ["::", 96],
  ["100::", 64],
  ["2001::", 23],
  ["2001:db8::", 32],
  ["3fff::", 20],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
  ["64:ff9b:1::", 48],
];

const internal = new BlockList();
for (const [network, prefix] of INTERNAL_V4) internal.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of INTERNAL_V6) internal.addSubnet(network, prefix, "ipv6");

/**
 * True for an address on the public internet: false for loopback, private, link-local, shared, metadata and every
 * other special-purpose range above, and for an IPv6 address that carries such an IPv4 address (mapped, NAT64, 6to4).
 * Anything that is not an IP address is not public either.
 */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return !internal.check(address, "ipv4");
  if (family !== 6) return false;
  const groups = ipv6Groups(address);
  if (groups === null) return false;
  const embedded = embeddedIpv4(groups);
  if (embedded !== null) return isPublicAddress(embedded);
  return !internal.check(address, "ipv6");
}

/** The IPv4 address inside an IPv4-mapped (::ffff:0:0/96), well-known NAT64 (64:ff9b::/96) or 6to4 (2002::/16) one. */
function embeddedIpv4(groups: readonly number[]): string | null {
  const at = (index: number) => groups[index] ?? 0;
  const v4 = (high: number, low: number) => `${high >> 8}.${high & 0xff}.${low >> 8}.${low & 0xff}`;
  const isZero = (from: number, to: number) => groups.slice(from, to).every((group) => group === 0);
  if (isZero(0, 5) && at(5) === 0xffff) return v4(at(6), at(7));
  if (at(0) === 0x64 && at(1) === 0xff9b && isZero(2, 6)) return v4(at(6), at(7));
  if (at(0) === 0x2002) return v4(at(1), at(2));
  return null;
}

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail included); null when it is not one. */
function ipv6Groups(address: string): number[] | null {
  const [head = "", tail, extra] = (address.split("%")[0] ?? "").toLowerCase().split("::");
  if (extra !== undefined) return null;
  const parse = (part: string): number[] | null => {
    if (part === "") return [];
    const groups: number[] = [];
    for (const piece of part.split(":")) {
      if (isIPv4(piece)) {
        const [a = 0, b = 0, c = 0, d = 0] = piece.split(".").map(Number);
        groups.push((a << 8) | b, (c << 8) | d);
      } else if (/^[0-9a-f]{1,4}$/.test(piece)) groups.push(Number.parseInt(piece, 16));
      else return null;
    }
    return groups;
  };
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  if (left === null || right === null) return null;
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return null;
  return [...left, ...Array<number>(missing).fill(0), ...right];
}

/** A push service's name resolved to an address the relay must never connect to. */
export class InternalAddressError extends Error {
  override readonly name = "InternalAddressError";
  readonly code = "ERR_RINGBACK_INTERNAL_ADDRESS";
}
