import { createDecipheriv } from "node:crypto";
import { describe, expect, it } from "vitest";
import { aad } from "./aad.js";
import { generateKey, keyBytes } from "./key.js";
import { keyId } from "./key-id.js";
import { openJson, openString } from "./open.js";
import { PAD_LINEAR_FROM_BYTES, paddedLength } from "./padding.js";
import { sealJson, sealString } from "./seal.js";

const SEALED_PATTERN = /^e2e1\.([0-9a-f]{16})\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]+)$/;

describe("sealString / openString", () => {
  const key = generateKey();
  const reportAad = aad.report("evt-1");

  it.each([
    ["ASCII", "The build is green."],
    ["empty", ""],
    ["non-ASCII", "Réponse — 返信 🚀 \u0000 end"],
    ["1 MB", "x".repeat(1024 * 1024)],
  ])("round-trips %s text", async (_case, plaintext) => {
    const sealed = await sealString(key, reportAad, plaintext);
    expect(sealed).toMatch(SEALED_PATTERN);
    expect(await openString(key, reportAad, sealed)).toBe(plaintext);
  });

  it("writes e2e1.<keyId>.<iv>.<ciphertext+tag> that node:crypto AES-256-GCM can open", async () => {
    const plaintext = "interoperable";
    const sealed = await sealString(key, reportAad, plaintext);
    const [, id, ivText, ciphertextText] = SEALED_PATTERN.exec(sealed)!;
    expect(id).toBe(await keyId(key));
    const iv = Buffer.from(ivText!, "base64url");
    const data = Buffer.from(ciphertextText!, "base64url");
    expect(iv).toHaveLength(12);
    expect(data).toHaveLength(Buffer.byteLength(plaintext) + 16);
    const decipher = createDecipheriv("aes-256-gcm", keyBytes(key), iv);
    decipher.setAAD(Buffer.from(reportAad));
    decipher.setAuthTag(data.subarray(-16));
    const opened = Buffer.concat([decipher.update(data.subarray(0, -16)), decipher.final()]);
    expect(opened.toString("utf8")).toBe(plaintext);
  });

  it("uses a fresh random iv for every seal", async () => {
    const sealed = await Promise.all(Array.from({ length: 2000 }, () => sealString(key, reportAad, "same")));
    const ivs = sealed.map((text) => text.split(".")[2]);
    expect(new Set(ivs).size).toBe(sealed.length);
    expect(new Set(sealed).size).toBe(sealed.length);
  });

  it("uses an explicit iv when given one (test vectors) and refuses one that is not 12 bytes", async () => {
    const iv = new Uint8Array(12).fill(9);
    const first = await sealString(key, reportAad, "fixed", { iv });
    expect(await sealString(key, reportAad, "fixed", { iv })).toBe(first);
    expect(first.split(".")[2]).toBe(Buffer.from(iv).toString("base64url"));
    await expect(sealString(key, reportAad, "fixed", { iv: new Uint8Array(16) })).rejects.toThrow(RangeError);
  });

  it("rejects an invalid key with invalid_key when sealing", async () => {
    await expect(sealString("rbk1_short" as never, reportAad, "x")).rejects.toMatchObject({
      code: "invalid_key",
    });
  });
});

describe("sealJson / openJson", () => {
  const key = generateKey();
  const resultAad = aad.settingsResult("req-1");

  it("round-trips a JSON value", async () => {
    const value = { ok: true, language: "fr-FR", voices: ["a", "b"], count: 3, nested: { none: null } };
    const sealed = await sealJson(key, resultAad, value);
    expect(await openJson(key, resultAad, sealed)).toEqual(value);
    expect(await openString(key, resultAad, sealed)).toBe(JSON.stringify(value));
  });

  it("refuses a value JSON cannot write", async () => {
    await expect(sealJson(key, resultAad, undefined)).rejects.toThrow(TypeError);
    await expect(sealJson(key, resultAad, { big: 1n })).rejects.toThrow(TypeError);
  });

  it("reports plaintext that is not JSON as corrupted", async () => {
    const sealed = await sealString(key, resultAad, "not json {");
    await expect(openJson(key, resultAad, sealed)).rejects.toMatchObject({ code: "corrupted" });
  });
});

describe("sealJson with padding", () => {
  const key = generateKey();
  const reportAad = aad.report("e1");

  it("gives reports of different lengths in one bucket the same sealed length, and opens to the same value", async () => {
    const short = { text: "Done." };
    const long = { text: `Done. ${"All tests pass. ".repeat(10)}` };
    const [sealedShort, sealedLong] = await Promise.all([
      sealJson(key, reportAad, short, { pad: true }),
      sealJson(key, reportAad, long, { pad: true }),
    ]);
    expect(sealedShort.length).toBe(sealedLong.length);
    expect(await openJson(key, reportAad, sealedLong)).toEqual(long);
    // Unpadded, the relay could tell them apart by length.
    const [plainShort, plainLong] = await Promise.all([
      sealJson(key, reportAad, short),
      sealJson(key, reportAad, long),
    ]);
    expect(plainShort.length).toBeLessThan(plainLong.length);
  });

  it("pads a large report by less than 64 KiB", async () => {
    const value = { text: "x".repeat(800 * 1024) };
    const padded = await openString(key, reportAad, await sealJson(key, reportAad, value, { pad: true }));
    const bytes = JSON.stringify(value).length;
    expect(padded.length % PAD_LINEAR_FROM_BYTES).toBe(0);
    expect(padded.length - bytes).toBeGreaterThanOrEqual(0);
    expect(padded.length - bytes).toBeLessThan(PAD_LINEAR_FROM_BYTES);
    expect(paddedLength(bytes)).toBe(padded.length);
  });
});
