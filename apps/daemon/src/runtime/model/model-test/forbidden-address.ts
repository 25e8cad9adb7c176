import { lookup as dnsLookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { RingbackError } from "@ringback/protocol";

/**
 * Addresses a model call never goes to, whoever set it: link-local networks (a router's or a cloud host's own
 * services) and the cloud metadata services, which hand out the machine's credentials to whatever asks. A model
 * server never lives there.
 */
const FORBIDDEN_ADDRESSES = new BlockList();
FORBIDDEN_ADDRESSES.addSubnet("169.254.0.0", 16, "ipv4"); // link-local, AWS/GCP/Azure/Oracle metadata among them
FORBIDDEN_ADDRESSES.addAddress("100.100.100.200", "ipv4"); // Alibaba Cloud's metadata service
FORBIDDEN_ADDRESSES.addSubnet("fe80::", 10, "ipv6"); // link-local
FORBIDDEN_ADDRESSES.addAddress("fd00:ec2::254", "ipv6"); // AWS's metadata service over IPv6

/** Names of metadata services, refused before any lookup. */
const METADATA_HOSTNAMES = new Set(["metadata.google.internal", "metadata.goog", "metadata"]);

/** An address a lookup gave, as `dns.lookup(name, { all: true })` lists them. */
interface LookedUpAddress {
  address: string;
  family: number;
}

export type Lookup = (hostname: string) => Promise<LookedUpAddress[]>;

const systemLookup: Lookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** True for a link-local or metadata address (IPv4-mapped IPv6 forms included: the block list reads them). */
export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return FORBIDDEN_ADDRESSES.check(address, family === 4 ? "ipv4" : "ipv6");
}

/** The host of an address as a connection uses it: lower case, no trailing dot, no IPv6 brackets. */
function hostOf(url: URL): string {
  return url.hostname
    .toLowerCase()
    .replace(/\.$/, "")
    .replace(/^\[(.*)\]$/, "$1");
}

export type AddressCheck = { kind: "allowed" } | { kind: "refused"; reason: string };

/**
 * Whether the model's address may be called: a metadata service's name, a link-local or metadata address, or a
 * name that resolves to one (any of its addresses) is refused. A name that does not resolve is allowed here: the
 * call then fails as any unreachable address does.
 */
export async function checkModelAddress(
  baseUrl: string,
  lookup: Lookup = systemLookup,
): Promise<AddressCheck> {
  const host = hostOf(new URL(baseUrl));
  if (METADATA_HOSTNAMES.has(host)) return { kind: "refused", reason: `${host} is a cloud metadata service` };
  if (isIP(host) !== 0) {
    return isForbiddenAddress(host)
      ? { kind: "refused", reason: `${host} is a link-local or cloud metadata address` }
      : { kind: "allowed" };
  }
  const addresses = await lookup(host).catch(() => []);
  const forbidden = addresses.find(({ address }) => isForbiddenAddress(address));
  return forbidden
    ? {
        kind: "refused",
        reason: `${host} resolves to ${forbidden.address}, a link-local or cloud metadata address`,
      }
    : { kind: "allowed" };
}

/** Throws 403 `model_address_refused` for an address `checkModelAddress` refuses. */
export async function refuseForbiddenAddress(baseUrl: string, lookup?: Lookup): Promise<void> {
  const check = await checkModelAddress(baseUrl, lookup);
  if (check.kind === "refused") {
    throw new RingbackError(
      "model_address_refused",
      `The computer never calls this address: ${check.reason}.`,
    );
  }
}
