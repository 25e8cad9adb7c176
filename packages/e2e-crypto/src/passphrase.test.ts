import { pbkdf2Sync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { formatKey, keyBytes, parseKey } from "./key.js";
import { deriveKeyFromPassphrase } from "./passphrase.js";

describe("deriveKeyFromPassphrase", () => {
  it("gives a key of the same form as generateKey, equal to PBKDF2-SHA256 600000 over the NFC phrase", async () => {
    const phrase = "le cafe\u0301 du matin";
    const key = await deriveKeyFromPassphrase(phrase);
    expect(parseKey(key)).toBe(key);
    expect(keyBytes(key)).toHaveLength(32);
    const expected = pbkdf2Sync(phrase.normalize("NFC"), "ringback/e2e/v1", 600_000, 32, "sha256");
    expect(key).toBe(formatKey(expected));
  });

  it("gives the same key for the NFC and NFD spelling of a phrase", async () => {
    const nfc = "d\u00e9j\u00e0 vu, encore";
    const nfd = nfc.normalize("NFD");
    expect(nfd).not.toBe(nfc);
    expect(await deriveKeyFromPassphrase(nfd)).toBe(await deriveKeyFromPassphrase(nfc));
  });

  it("counts code points after NFC, not UTF-16 units", async () => {
    await expect(deriveKeyFromPassphrase("\u{1F511}".repeat(11))).rejects.toMatchObject({
      code: "passphrase_too_short",
    });
    await expect(deriveKeyFromPassphrase("e\u0301".repeat(11))).rejects.toMatchObject({
      code: "passphrase_too_short",
    });
    await expect(deriveKeyFromPassphrase("\u{1F511}".repeat(12))).resolves.toMatch(/^rbk1_/);
  });

  it("keeps the phrase out of the error", async () => {
    const phrase = "hunter2hunt";
    const error = await deriveKeyFromPassphrase(phrase).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "passphrase_too_short" });
    expect(String((error as Error).message)).not.toContain(phrase);
  });
});
