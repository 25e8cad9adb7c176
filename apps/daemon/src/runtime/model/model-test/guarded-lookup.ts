import { lookup as dnsLookup } from "node:dns";
import { isIP, type LookupFunction } from "node:net";
import { isForbiddenAddress } from "./forbidden-address.js";

/** Why a model call did not connect: its address is one it never goes to (`checkModelAddress`). */
function forbiddenError(hostname: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${hostname} is a link-local or cloud metadata address`), {
    code: "ERR_FORBIDDEN_ADDRESS",
  });
}

/** The refusal of a host given as a literal address (no lookup runs for one), or null. */
export function forbiddenLiteralHost(url: URL): NodeJS.ErrnoException | null {
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  return isIP(host) !== 0 && isForbiddenAddress(host) ? forbiddenError(host) : null;
}

/**
 * `dns.lookup` for model calls: a name that resolves to a link-local or metadata address at the moment of the
 * connection fails (a name that answered otherwise when the address was checked, DNS rebinding, gains nothing).
 */
export const guardedLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, options, (error, address, family) => {
    if (error) {
      callback(error, address, family);
      return;
    }
    const addresses = Array.isArray(address) ? address.map((entry) => entry.address) : [address];
    if (addresses.some(isForbiddenAddress)) {
      callback(forbiddenError(hostname), address, family);
      return;
    }
    callback(null, address, family);
  });
};
