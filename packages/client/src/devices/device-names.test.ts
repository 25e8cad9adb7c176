import { generateKey, sealDeviceName } from "@ringback/e2e-crypto";
import { describe, expect, it } from "vitest";
import { isSealedDeviceName, placeholderDeviceName, readDeviceName, readListedName } from "./device-names.js";

describe("reading a device name the relay lists", () => {
  const key = generateKey();

  it("opens a sealed name with the account's key", async () => {
    const sealed = await sealDeviceName(key, "Zoë's Pixel");
    expect(isSealedDeviceName(sealed)).toBe(true);
    expect(await readDeviceName(key, sealed)).toBe("Zoë's Pixel");
  });

  it("takes an older client's plaintext name as it is", async () => {
    expect(isSealedDeviceName("Old laptop")).toBe(false);
    expect(await readDeviceName(key, "Old laptop")).toBe("Old laptop");
  });

  it.each([
    ["sealed under another key", () => sealDeviceName(generateKey(), "Pixel")],
    [
      "garbage that looks sealed",
      async () => "e2e1.0123456789abcdef.AAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBBBBBBBBBB",
    ],
    ["not even the sealed format", async () => "e2e1.nonsense"],
  ])("reads a name %s as null, never as ciphertext", async (_case, make) => {
    expect(await readDeviceName(key, await make())).toBeNull();
  });

  it("reads the placeholder a device sends before it has the key as no name", async () => {
    expect(placeholderDeviceName("phone")).toBe("phone");
    expect(await readListedName(key, "phone", "phone")).toBeNull();
    expect(await readListedName(key, "phone", "computer")).toBe("phone");
    expect(await readListedName(key, "phone", undefined)).toBe("phone");
    expect(await readListedName(key, await sealDeviceName(key, "Pixel"), "phone")).toBe("Pixel");
  });
});
