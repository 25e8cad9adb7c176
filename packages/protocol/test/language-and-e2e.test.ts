import { describe, expect, it } from "vitest";
import {
  BriefLanguage,
  E2eKeyRecord,
  isPassphraseLongEnough,
  PairingResult,
  PutBriefLanguageRequest,
  PutE2eKeyRequest,
} from "../src/index.js";

const key = `rbk1_${"A".repeat(43)}`;

describe("brief language", () => {
  it.each([
    ["es-MX", "es-MX"],
    ["en-us", "en-US"],
    ["zh-hans-cn", "zh-Hans-CN"],
    ["es-419", "es-419"],
  ])("accepts %s as %s", (input, canonical) => {
    expect(PutBriefLanguageRequest.parse({ language: input })).toEqual({ language: canonical });
  });

  it.each(["es", "english", "", "en_US_POSIX!", 42])("rejects %j", (language) => {
    expect(PutBriefLanguageRequest.safeParse({ language }).success).toBe(false);
  });

  it("has source app or system", () => {
    expect(BriefLanguage.parse({ language: "en-US", source: "system" }).source).toBe("system");
    expect(BriefLanguage.safeParse({ language: "en-US", source: "user" }).success).toBe(false);
  });
});

describe("end-to-end key", () => {
  it("accepts each of the three PUT /e2e/key forms", () => {
    expect(PutE2eKeyRequest.parse({ passphrase: "correct horse battery" })).toEqual({
      passphrase: "correct horse battery",
    });
    expect(PutE2eKeyRequest.parse({ key })).toEqual({ key });
    expect(PutE2eKeyRequest.parse({ random: true })).toEqual({ random: true });
  });

  it.each([{}, { random: false }, { passphrase: "x", key }, { key: 5 }])("rejects %j", (body) => {
    expect(PutE2eKeyRequest.safeParse(body).success).toBe(false);
  });

  it("counts passphrase length in code points after NFC", () => {
    expect(isPassphraseLongEnough("elevenchars")).toBe(false);
    expect(isPassphraseLongEnough("twelve chars")).toBe(true);
    // 11 letters + "e" with a combining accent: 13 code points before NFC, 12 after.
    expect(isPassphraseLongEnough("abcdefghijke\u0301")).toBe(true);
    expect(isPassphraseLongEnough("abcdefghije\u0301")).toBe(false);
    expect(isPassphraseLongEnough("🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑🔑")).toBe(true);
  });

  it("validates the key record and the pairing result", () => {
    const record = {
      key,
      keyId: "0123456789abcdef",
      source: "passphrase",
      updatedAt: "2026-11-22T10:00:00Z",
    };
    expect(E2eKeyRecord.parse(record)).toEqual(record);
    expect(E2eKeyRecord.safeParse({ ...record, key: "rbk2_abc" }).success).toBe(false);
    expect(E2eKeyRecord.safeParse({ ...record, keyId: "XYZ" }).success).toBe(false);
    const pairing = {
      serverUrl: "http://127.0.0.1:8787",
      code: "123456789012",
      key,
      expiresAt: "2026-11-22T10:10:00Z",
      link: `http://127.0.0.1:8787/#pair=123456789012&key=${key}`,
    };
    expect(PairingResult.parse(pairing)).toEqual(pairing);
    expect(PairingResult.safeParse({ ...pairing, code: "12345" }).success).toBe(false);
    expect(PairingResult.safeParse({ ...pairing, code: "123456" }).success).toBe(false);
    const { link: _link, ...withoutLink } = pairing;
    expect(PairingResult.safeParse(withoutLink).success).toBe(false);
  });
});
