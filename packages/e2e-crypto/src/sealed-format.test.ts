import { describe, expect, it } from "vitest";
import { aad } from "./aad.js";
import { isE2eError } from "./e2e-error.js";
import { generateKey } from "./key.js";
import { keyId } from "./key-id.js";
import { sealJson, sealString } from "./seal.js";
import { sealedKeyId, sealedPlaintextBytes } from "./sealed-format.js";

function codeOf(read: () => unknown): unknown {
  try {
    read();
  } catch (error) {
    return isE2eError(error) ? error.code : error;
  }
  return "no error";
}

describe("sealedKeyId", () => {
  it("reads the id of the key a string was sealed with, without that key", async () => {
    const key = generateKey();
    const other = generateKey();
    expect(sealedKeyId(await sealJson(key, aad.settingsRequest("req-1"), { path: "/llm/settings" }))).toBe(
      await keyId(key),
    );
    expect(sealedKeyId(await sealString(other, aad.reply("evt-1"), ""))).toBe(await keyId(other));
  });

  it.each([
    ["not sealed", "hello"],
    ["another version", "e2e2.0123456789abcdef.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA"],
    ["an upper-case key id", "e2e1.0123456789ABCDEF.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA"],
    ["a short key id", "e2e1.0123456789abcde.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA"],
    ["a header only", "e2e1.0123456789abcdef"],
    ["a ciphertext shorter than a tag", "e2e1.0123456789abcdef.AAAAAAAAAAAAAAAA.AAAA"],
  ])("says corrupted for %s", (_case, text) => {
    expect(codeOf(() => sealedKeyId(text))).toBe("corrupted");
  });

  it("says corrupted for a value that is not a string", () => {
    expect(codeOf(() => sealedKeyId(42 as unknown as string))).toBe("corrupted");
  });
});

describe("sealedPlaintextBytes", () => {
  it("reads the plaintext's UTF-8 length without the key", async () => {
    const key = generateKey();
    for (const text of ["", "a", "café", " ".repeat(1024)]) {
      const sealed = await sealString(key, aad.fleet("dev_a"), text);
      expect(sealedPlaintextBytes(sealed)).toBe(new TextEncoder().encode(text).length);
    }
  });

  it("says corrupted for a text that is not sealed", () => {
    expect(codeOf(() => sealedPlaintextBytes("hello"))).toBe("corrupted");
    expect(codeOf(() => sealedPlaintextBytes("e2e1.0123456789abcdef.AAAAAAAAAAAAAAAA.AAAA"))).toBe(
      "corrupted",
    );
  });
});
