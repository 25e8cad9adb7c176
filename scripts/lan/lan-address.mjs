import { networkInterfaces } from "node:os";

/** The machine's address on the local network: the first non-internal IPv4 address, or the one asked for. */
export function lanAddress(asked) {
  const addresses = Object.values(networkInterfaces())
    .flat()
    .filter((entry) => entry && entry.family === "IPv4");
  if (asked) {
    if (!addresses.some((entry) => entry.address === asked))
      throw new Error(
        `--lan-address ${asked} is not an address of this machine (it has ${addresses.map((entry) => entry.address).join(", ")})`,
      );
    return asked;
  }
  const found = addresses.find((entry) => !entry.internal);
  if (!found) throw new Error("this machine has no network address besides loopback: is it on a network?");
  return found.address;
}
