import { describe, expect, it } from "vitest";
import { isE2eError } from "./e2e-error.js";
import { formatKey, generateKey, keyBytes, parseKey } from "./key.js";

function codeOf(action: () => unknown): unknown {
  try {
    action();
  } catch (error) {
    return isE2eError(error) ? error.code : error;
  }
  return "no error";
}

describe("keys", () => {
  it("generates rbk1_ keys of 32 random bytes, different every time", () => {
    const keys = Array.from({ length: 50 }, generateKey);
    for (const key of keys) {
      expect(key).toMatch(/^rbk1_[A-Za-z0-9_-]{43}$/);
      expect(keyBytes(key)).toHaveLength(32);
      expect(parseKey(key)).toBe(key);
    }
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("formats and parses the same 32 bytes back", () => {
    const bytes = Uint8Array.from({ length: 32 }, (_, index) => index * 7);
    const key = formatKey(bytes);
    expect(key).toBe(`rbk1_${Buffer.from(bytes).toString("base64url")}`);
    expect(keyBytes(parseKey(key))).toEqual(bytes);
  });

  it("hands out a copy of the key bytes", () => {
    const key = generateKey();
    keyBytes(key).fill(0);
    expect(keyBytes(key)).not.toEqual(new Uint8Array(32));
  });

  it.each([31, 33, 0])("refuses to format %i bytes with invalid_key", (length) => {
    expect(codeOf(() => formatKey(new Uint8Array(length)))).toBe("invalid_key");
  });

  const valid = formatKey(new Uint8Array(32).fill(0xab));
  it.each([
    ["wrong prefix", valid.replace("rbk1_", "rbk0_")],
    ["no prefix", valid.slice(5)],
    ["too short", valid.slice(0, -1)],
    ["too long", `${valid}A`],
    ["padding", `${valid}=`],
    ["a character outside base64url", `${valid.slice(0, -2)}*${valid.slice(-1)}`],
    ["leading whitespace", ` ${valid}`],
    ["trailing whitespace", `${valid}\t`],
    ["not a string", 42],
  ])("rejects a key with %s as invalid_key", (_case, text) => {
    expect(codeOf(() => parseKey(text as string))).toBe("invalid_key");
  });

  it("never repeats the key text in the error", () => {
    const almost = `${generateKey()} `;
    try {
      parseKey(almost);
      expect.unreachable();
    } catch (error) {
      expect(String((error as Error).message)).not.toContain(almost.slice(5, 40));
      expect(String((error as Error).stack)).not.toContain(almost.slice(5, 40));
    }
  });
});
