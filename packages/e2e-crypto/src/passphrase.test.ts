import { pbkdf2Sync, scryptSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { formatKey, keyBytes, parseKey } from "./key.js";
import { keyId } from "./key-id.js";
import { checkPassphrase, deriveKeyFromPassphrase, deriveKeyFromPassphraseV1 } from "./passphrase.js";
import { scryptKeyBytes } from "./scrypt.js";

describe("deriveKeyFromPassphraseV1 (keys made before version 2)", () => {
  it("gives a key of the same form as generateKey, equal to PBKDF2-SHA256 600000 over the NFC phrase", async () => {
    const phrase = "le cafe\u0301 du matin";
    const key = await deriveKeyFromPassphraseV1(phrase);
    expect(parseKey(key)).toBe(key);
    expect(keyBytes(key)).toHaveLength(32);
    const expected = pbkdf2Sync(phrase.normalize("NFC"), "ringback/e2e/v1", 600_000, 32, "sha256");
    expect(key).toBe(formatKey(expected));
  });

  it("gives the same key for the NFC and NFD spelling of a phrase", async () => {
    const nfc = "d\u00e9j\u00e0 vu, encore";
    const nfd = nfc.normalize("NFD");
    expect(nfd).not.toBe(nfc);
    expect(await deriveKeyFromPassphraseV1(nfd)).toBe(await deriveKeyFromPassphraseV1(nfc));
  });

  it("counts code points after NFC, not UTF-16 units", async () => {
    await expect(deriveKeyFromPassphraseV1("\u{1F511}".repeat(11))).rejects.toMatchObject({
      code: "passphrase_too_short",
    });
    await expect(deriveKeyFromPassphraseV1("e\u0301".repeat(11))).rejects.toMatchObject({
      code: "passphrase_too_short",
    });
    await expect(deriveKeyFromPassphraseV1("\u{1F511}".repeat(12))).resolves.toMatch(/^rbk1_/);
  });

  it("keeps the phrase out of the error", async () => {
    const phrase = "hunter2hunt";
    const error = await deriveKeyFromPassphraseV1(phrase).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "passphrase_too_short" });
    expect(String((error as Error).message)).not.toContain(phrase);
  });
});

describe("deriveKeyFromPassphrase (version 2: scrypt, salted with the account)", () => {
  const phrase = "le cafe\u0301 du matin";

  it("is scrypt N=2^17 r=8 p=1 over the NFC phrase, salted with ringback/e2e/v2/passphrase/<accountId>", async () => {
    const key = await deriveKeyFromPassphrase(phrase, "acc_one");
    const expected = scryptSync(phrase.normalize("NFC"), "ringback/e2e/v2/passphrase/acc_one", 32, {
      N: 131_072,
      r: 8,
      p: 1,
      maxmem: 256 * 1024 * 1024,
    });
    expect(key).toBe(formatKey(expected));
  });

  it("gives two accounts with the same phrase unrelated keys and key ids, and neither is the version 1 key", async () => {
    const [first, second] = [
      await deriveKeyFromPassphrase(phrase, "acc_one"),
      await deriveKeyFromPassphrase(phrase, "acc_two"),
    ];
    expect(first).not.toBe(second);
    expect(await keyId(first)).not.toBe(await keyId(second));
    expect(first).not.toBe(await deriveKeyFromPassphraseV1(phrase));
  });

  it("gives the same bytes with the JavaScript scrypt (browsers) and Node's", async () => {
    const password = new TextEncoder().encode(phrase);
    const salt = new TextEncoder().encode("ringback/e2e/v2/passphrase/acc_one");
    expect(await scryptKeyBytes(password, salt, "javascript")).toEqual(
      await scryptKeyBytes(password, salt, "node"),
    );
  });

  it("refuses a short phrase before any work, and an account id that is empty or has a slash", async () => {
    expect(() => checkPassphrase("eleven char")).toThrow(
      expect.objectContaining({ code: "passphrase_too_short" }),
    );
    expect(() => checkPassphrase("twelve chars")).not.toThrow();
    await expect(deriveKeyFromPassphrase("eleven char", "acc_one")).rejects.toMatchObject({
      code: "passphrase_too_short",
    });
    for (const accountId of ["", "acc/one", "acc\none"]) {
      await expect(deriveKeyFromPassphrase(phrase, accountId)).rejects.toMatchObject({
        code: "invalid_account_id",
      });
    }
  });
});
