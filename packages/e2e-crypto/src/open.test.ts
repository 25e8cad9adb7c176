import { createCipheriv, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { aad } from "./aad.js";
import { isE2eError } from "./e2e-error.js";
import { generateKey, keyBytes } from "./key.js";
import { keyId } from "./key-id.js";
import { openString } from "./open.js";
import { sealString } from "./seal.js";

async function codeOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return isE2eError(error) ? error.code : error;
  }
  return "no error";
}

describe("openString errors", () => {
  const key = generateKey();
  const replyAad = aad.reply("evt-1");

  it("says key_mismatch when sealed with another key", async () => {
    const sealed = await sealString(generateKey(), replyAad, "hello");
    expect(await codeOf(openString(key, replyAad, sealed))).toBe("key_mismatch");
  });

  it("says corrupted for the same id under another purpose, or another id", async () => {
    const sealed = await sealString(key, replyAad, "hello");
    expect(await codeOf(openString(key, aad.report("evt-1"), sealed))).toBe("corrupted");
    expect(await codeOf(openString(key, aad.reply("evt-2"), sealed))).toBe("corrupted");
  });

  it("never opens a string with any one character changed", async () => {
    const sealed = await sealString(key, replyAad, "a short reply");
    const keyIdStart = "e2e1.".length;
    for (let index = 0; index < sealed.length; index++) {
      const inKeyId = index >= keyIdStart && index < keyIdStart + 16;
      // Another hex digit in the key id names another key; anywhere else the string no longer authenticates.
      const replacement = inKeyId ? (sealed[index] === "0" ? "1" : "0") : sealed[index] === "A" ? "B" : "A";
      const changed = sealed.slice(0, index) + replacement + sealed.slice(index + 1);
      const code = await codeOf(openString(key, replyAad, changed));
      expect(code, `character ${index}`).toBe(inKeyId ? "key_mismatch" : "corrupted");
    }
  });

  it.each([
    ["not a string", 42],
    ["empty", ""],
    ["the wrong version", "e2e0.0123456789abcdef.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA"],
    ["missing fields", "e2e1.0123456789abcdef"],
    ["a short iv", "e2e1.0123456789abcdef.AAAA.AAAAAAAAAAAAAAAAAAAAAA"],
    ["no tag", "e2e1.0123456789abcdef.AAAAAAAAAAAAAAAA.AAAA"],
  ])("says corrupted for %s", async (_case, sealed) => {
    expect(await codeOf(openString(key, replyAad, sealed as string))).toBe("corrupted");
  });

  it("says corrupted when the authenticated plaintext is not UTF-8", async () => {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", keyBytes(key), iv);
    cipher.setAAD(Buffer.from(replyAad));
    const ciphertext = Buffer.concat([
      cipher.update(Buffer.from([0xff, 0xfe])),
      cipher.final(),
      cipher.getAuthTag(),
    ]);
    const sealed = `e2e1.${await keyId(key)}.${iv.toString("base64url")}.${ciphertext.toString("base64url")}`;
    expect(await codeOf(openString(key, replyAad, sealed))).toBe("corrupted");
  });

  it("says invalid_key for an invalid key before looking at the sealed string", async () => {
    expect(await codeOf(openString("rbk1_" as never, replyAad, "garbage"))).toBe("invalid_key");
  });
});
