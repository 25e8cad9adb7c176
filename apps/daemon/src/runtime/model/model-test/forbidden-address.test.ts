import { describe, expect, it } from "vitest";
import { checkModelAddress, isForbiddenAddress, type Lookup } from "./forbidden-address.js";

const resolvesTo =
  (...addresses: string[]): Lookup =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
const unresolvable: Lookup = async () => {
  throw Object.assign(new Error("getaddrinfo ENOTFOUND"), { code: "ENOTFOUND" });
};

describe("addresses a model call never goes to", () => {
  it.each([
    "169.254.169.254",
    "169.254.0.1",
    "100.100.100.200",
    "fe80::1",
    "febf::1",
    "fd00:ec2::254",
    "::ffff:169.254.169.254",
    "::ffff:a9fe:a9fe",
  ])("refuses %s", (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each([
    "127.0.0.1",
    "::1",
    "10.0.0.5",
    "192.168.1.20",
    "100.100.100.100",
    "fd00::1",
    "8.8.8.8",
    "fec0::1",
  ])("allows %s (a model on this computer or the local network is normal)", (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });

  it.each([
    ["http://169.254.169.254/latest", "link-local"],
    ["http://2852039166/v1", "link-local"],
    ["http://0xa9.0xfe.0xa9.0xfe/v1", "link-local"],
    ["http://[fd00:ec2::254]/v1", "metadata"],
    ["http://[::ffff:169.254.169.254]/v1", "metadata"],
    ["http://metadata.google.internal/computeMetadata/v1", "metadata service"],
    ["http://METADATA.google.internal./v1", "metadata service"],
  ])("refuses the address %s without a lookup", async (baseUrl, words) => {
    const check = await checkModelAddress(baseUrl, unresolvable);
    expect(check).toMatchObject({ kind: "refused", reason: expect.stringContaining(words) });
  });

  it("resolves a name first and refuses it when any of its addresses is forbidden", async () => {
    expect(
      await checkModelAddress("http://rebound.example/v1", resolvesTo("93.184.215.14", "169.254.169.254")),
    ).toMatchObject({ kind: "refused", reason: expect.stringContaining("resolves to 169.254.169.254") });
    expect(await checkModelAddress("http://models.example/v1", resolvesTo("93.184.215.14"))).toEqual({
      kind: "allowed",
    });
    expect(await checkModelAddress("http://nowhere.invalid/v1", unresolvable)).toEqual({ kind: "allowed" });
  });
});
